import Foundation
import ServiceKit
import ShoppingListsService

// Read configuration, build, run: see ShoppingListsService for what it serves and the settings it reads.
do {
    await ServiceMain.run(try ShoppingListsService.definition(environment: EnvironmentVariables(), clock: .system))
} catch {
    FileHandle.standardError.write(Data("shopping-lists: \(error)\n".utf8))
    exit(2)
}
