import Foundation
import GeoSearchService
import ServiceKit

// Read configuration, build, run: see GeoSearchService for what it serves and the settings it reads.
do {
    await ServiceMain.run(try GeoSearchService.definition(environment: EnvironmentVariables(), clock: .system))
} catch {
    FileHandle.standardError.write(Data("geo-search: \(error)\n".utf8))
    exit(2)
}
