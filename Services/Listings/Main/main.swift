import Foundation
import ListingsService
import ServiceKit

// Read configuration, build, run: see ListingsService for what it serves and the settings it reads.
do {
    await ServiceMain.run(try ListingsService.definition(environment: EnvironmentVariables(), clock: .system))
} catch {
    FileHandle.standardError.write(Data("listings: \(error)\n".utf8))
    exit(2)
}
