import Foundation

/// Dates of the proleptic Gregorian calendar as days since 1970-01-01, both ways (Howard
/// Hinnant's `civil_from_days` and `days_from_civil`): how response JSON writes dates, and how
/// read models' JSON columns are read back, without Foundation's calendar (issue 17).
package enum CivilDate {
    package static func from(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = shifted.floorDiv(146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    package static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear.floorDiv(400)
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// How many days `month` (1–12) of `year` has.
    package static func days(inMonth month: Int64, of year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// `YYYY-MM-DDTHH:MM:SSZ`: how `JSONEncoder`'s `.iso8601` strategy, and so ``ResponseJSON``
/// and the event log's JSON, write a date.
package enum WholeSecondISO8601 {
    /// The date the text names; nil for any other form or a field out of range.
    package static func date(_ text: UnsafeRawBufferPointer) -> Date? {
        guard text.count == 20, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"), text[10] == UInt8(ascii: "T"),
            text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"), text[19] == UInt8(ascii: "Z"),
            let year = digits(text, 0, 4), let month = digits(text, 5, 2), let day = digits(text, 8, 2),
            let hour = digits(text, 11, 2), let minute = digits(text, 14, 2), let second = digits(text, 17, 2),
            (1...12).contains(month), day >= 1, day <= CivilDate.days(inMonth: month, of: year), hour < 24, minute < 60, second < 60
        else { return nil }
        let days = CivilDate.daysSince1970(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    private static func digits(_ text: UnsafeRawBufferPointer, _ start: Int, _ count: Int) -> Int64? {
        var value: Int64 = 0
        for byte in text[start..<(start + count)] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return value
    }
}

extension Int64 {
    /// Division rounding towards minus infinity.
    package func floorDiv(_ divisor: Int64) -> Int64 { (self >= 0 ? self : self - divisor + 1) / divisor }
    /// The remainder of ``floorDiv(_:)``, never negative for a positive divisor.
    package func floorMod(_ divisor: Int64) -> Int64 { self - floorDiv(divisor) * divisor }
}
