import Foundation
import ListingsService
import ServiceKit

// Read configuration, build, run: see ListingsSettings for the settings it reads.
do {
    await ServiceMain.run(try ListingsService.definition(environment: EnvironmentVariables()))
} catch {
    FileHandle.standardError.write(Data("listings: \(error)\n".utf8))
    exit(2)
}
