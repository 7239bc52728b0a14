import Foundation
import GeoSearchService
import ServiceKit

// Read configuration, build, run: see GeoSearchService for what it serves and reads.
do {
    await ServiceMain.run(try GeoSearchService.definition())
} catch {
    FileHandle.standardError.write(Data("geo-search: \(error)\n".utf8))
    exit(2)
}
