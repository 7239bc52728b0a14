import AccountsService
import Foundation
import ServiceKit

// Read configuration, build, run: see AccountsService for the settings it reads.
do {
    let environment = EnvironmentVariables()
    await ServiceMain.run(try AccountsService.definition(environment: environment))
} catch {
    FileHandle.standardError.write(Data("accounts: \(error)\n".utf8))
    exit(2)
}
