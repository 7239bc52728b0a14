import AccountsService
import Foundation
import ServiceKit

// Read configuration, build, run: see AccountsService for what it serves and the settings it reads.
do {
    await ServiceMain.run(try AccountsService.definition(environment: EnvironmentVariables(), clock: .system))
} catch {
    FileHandle.standardError.write(Data("accounts: \(error)\n".utf8))
    exit(2)
}
