package io.weir.samples.fraud;

import java.util.Optional;

/**
 * The two rules, the same for the job and for the sample's model of it:
 * <ul>
 *   <li><b>impossible travel</b>: the distance from the card's previous transaction (great circle)
 *       over the time between them is above {@value #MAX_KMH} km/h;</li>
 *   <li><b>amount spike</b>: after at least {@value #MIN_HISTORY} transactions, an amount above
 *       {@value #SPIKE_FACTOR} times the card's running mean.</li>
 * </ul>
 * Travel is checked first: a transaction that trips both is reported once, as travel.
 */
public final class FraudRules {

    public static final double MAX_KMH = 1_000;
    public static final int MIN_HISTORY = 5;
    public static final double SPIKE_FACTOR = 5;
    private static final double EARTH_KM = 6_371;

    private FraudRules() {}

    /** The rule {@code t} trips given the card's history before it (null for the card's first), and its figure. */
    public static Optional<Verdict> judge(CardHistory before, Transaction t) {
        if (before == null) {
            return Optional.empty();
        }
        double km = distanceKm(before.lat(), before.lon(), t.lat(), t.lon());
        double hours = Math.abs(t.time() - before.time()) / 3_600_000.0;
        double kmh = hours == 0 ? (km == 0 ? 0 : Double.POSITIVE_INFINITY) : km / hours;
        if (kmh > MAX_KMH) {
            return Optional.of(new Verdict("impossible-travel", Math.round(kmh)));
        }
        if (before.count() >= MIN_HISTORY && t.amount() > SPIKE_FACTOR * before.meanAmount()) {
            return Optional.of(new Verdict("amount-spike", Math.round(t.amount() / before.meanAmount() * 10) / 10.0));
        }
        return Optional.empty();
    }

    /** A rule tripped: its name and figure (km/h, or the multiple of the mean). */
    public record Verdict(String reason, double figure) {}

    /** Great-circle distance (haversine), in kilometres. */
    public static double distanceKm(double lat1, double lon1, double lat2, double lon2) {
        double dLat = Math.toRadians(lat2 - lat1);
        double dLon = Math.toRadians(lon2 - lon1);
        double a = Math.pow(Math.sin(dLat / 2), 2)
                + Math.cos(Math.toRadians(lat1)) * Math.cos(Math.toRadians(lat2)) * Math.pow(Math.sin(dLon / 2), 2);
        return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(a)));
    }
}
