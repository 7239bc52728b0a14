import Foundation
import Geo
import GeoSearchDomain

/// The reference geodesic of these tests: Vincenty's inverse formula on the WGS-84
/// ellipsoid (Survey Review, 1975), accurate to well under a millimetre. It needs no
/// module code beyond the ellipsoid's figures, so it can catch the module's mistakes.
enum Vincenty {
    /// The geodesic distance in metres, or nil for nearly antipodal points, where the
    /// iteration does not converge.
    static func distanceMeters(_ from: GeoCoordinate, _ to: GeoCoordinate) -> Double? {
        let a = Earth.equatorialRadiusMeters
        let f = Earth.flattening
        let b = a * (1 - f)
        let l = (to.lon - from.lon) * .pi / 180
        let u1 = atan((1 - f) * tan(from.lat * .pi / 180))
        let u2 = atan((1 - f) * tan(to.lat * .pi / 180))
        let (sinU1, cosU1, sinU2, cosU2) = (sin(u1), cos(u1), sin(u2), cos(u2))
        var lambda = l
        for _ in 0..<200 {
            let (sinLambda, cosLambda) = (sin(lambda), cos(lambda))
            let sinSigma =
                ((cosU2 * sinLambda) * (cosU2 * sinLambda)
                + (cosU1 * sinU2 - sinU1 * cosU2 * cosLambda) * (cosU1 * sinU2 - sinU1 * cosU2 * cosLambda)).squareRoot()
            if sinSigma == 0 { return 0 }
            let cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            let sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            let cos2Alpha = 1 - sinAlpha * sinAlpha
            // On the equator cos²α is 0 and the term is 0.
            let cos2SigmaM = cos2Alpha == 0 ? 0 : cosSigma - 2 * sinU1 * sinU2 / cos2Alpha
            let c = f / 16 * cos2Alpha * (4 + f * (4 - 3 * cos2Alpha))
            let previous = lambda
            lambda =
                l + (1 - c) * f * sinAlpha
                * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            if abs(lambda - previous) < 1e-12 {
                let uSquared = cos2Alpha * (a * a - b * b) / (b * b)
                let bigA = 1 + uSquared / 16384 * (4096 + uSquared * (-768 + uSquared * (320 - 175 * uSquared)))
                let bigB = uSquared / 1024 * (256 + uSquared * (-128 + uSquared * (74 - 47 * uSquared)))
                let deltaSigma =
                    bigB * sinSigma
                    * (cos2SigmaM + bigB / 4
                        * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
                            - bigB / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
                return b * bigA * (sigma - deltaSigma)
            }
        }
        return nil
    }
}
