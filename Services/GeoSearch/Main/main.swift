import GeoSearchService
import ServiceKit

// Build and run: see GeoSearchService for what it serves and reads.
await ServiceMain.run(GeoSearchService.definition())
