import ServiceKit
import ShoppingListsService

// Build and run: see ShoppingListsService for what it serves and reads.
await ServiceMain.run(ShoppingListsService.definition())
