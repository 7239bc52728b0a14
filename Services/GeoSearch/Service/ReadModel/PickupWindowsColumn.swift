import CommonsAPI
import Foundation

/// A listing's pickup windows as geo-search keeps them in one column: `start,end` in seconds
/// since 1970, pairs separated by `;` (empty for none). A search reads them back for every
/// result it answers, without a JSON decoder.
enum PickupWindowsColumn {
    /// The column's text for `windows`.
    static func text(_ windows: [(startsAt: Date, endsAt: Date)]) -> String {
        windows.map { "\($0.startsAt.timeIntervalSince1970),\($0.endsAt.timeIntervalSince1970)" }.joined(separator: ";")
    }

    /// The windows in `text`; a pair that does not read as two numbers is left out.
    static func windows(_ text: String) -> [PickupWindow] {
        text.split(separator: ";").compactMap { pair in
            let bounds = pair.split(separator: ",")
            guard bounds.count == 2, let start = Double(bounds[0]), let end = Double(bounds[1]) else { return nil }
            return PickupWindow(startsAt: Date(timeIntervalSince1970: start), endsAt: Date(timeIntervalSince1970: end))
        }
    }
}
