import DonationsService
import Foundation
import ServiceKit

// Read configuration, build, run: see DonationsService for what it serves and the settings it reads.
do {
    await ServiceMain.run(try DonationsService.definition(environment: EnvironmentVariables(), clock: .system))
} catch {
    FileHandle.standardError.write(Data("donations: \(error)\n".utf8))
    exit(2)
}
