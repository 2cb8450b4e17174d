package io.weir.samples.fraud;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Deterministic input for fraud detection: cards living in a city each, paying a few times an
 * hour near home amounts around their own mean (never a rule's trip: at most a few km between two
 * payments minutes apart, at most 1.5 times the mean), with frauds injected: a payment in a city
 * far away minutes after one at home (and the card's next payment, back home, is as impossible),
 * and a payment of 20 times the card's mean. Some cards have no holder on record.
 *
 * <p>{@link #expected()} is the model: the rules applied to each card's payments in time order.
 */
public final class SampleTransactions {

    /** A city: where cards live and where stolen ones are used. */
    record City(String name, double lat, double lon) {}

    static final List<City> CITIES = List.of(
            new City("Lisbon", 38.72, -9.14),
            new City("Oslo", 59.91, 10.75),
            new City("Warsaw", 52.23, 21.01),
            new City("Athens", 37.98, 23.73),
            new City("Dublin", 53.35, -6.26),
            new City("Istanbul", 41.01, 28.98),
            new City("Cairo", 30.04, 31.24),
            new City("Reykjavik", 64.15, -21.94),
            new City("Madrid", 40.42, -3.70),
            new City("Helsinki", 60.17, 24.94));

    private final Map<String, CardHolder> holders = new TreeMap<>();
    private final List<Transaction> transactions = new ArrayList<>();
    private final Set<String> injected = new TreeSet<>();

    /**
     * @param cards   how many cards
     * @param perCard payments of each card, at least 8 (room for a spike after the history the rule needs)
     * @param base    the time of the first payments, epoch ms
     */
    public SampleTransactions(long seed, int cards, int perCard, long base) {
        if (cards < 1 || perCard < 8) {
            throw new IllegalArgumentException("at least 1 card and 8 payments per card");
        }
        Random random = new Random(seed);
        for (int c = 0; c < cards; c++) {
            String card = String.format("card-%04d", c);
            City home = CITIES.get(random.nextInt(CITIES.size()));
            if (random.nextInt(20) > 0) {
                holders.put(card, new CardHolder("Holder " + c, home.name()));
            }
            double mean = 20 + random.nextInt(180);
            int travelAt = random.nextInt(10) == 0 ? 2 + random.nextInt(perCard - 4) : -1;
            int spikeAt = random.nextInt(10) == 0 ? 6 + random.nextInt(perCard - 6) : -1;
            long time = base + random.nextInt(60_000);
            for (int i = 0; i < perCard; i++) {
                String id = card + "-" + i;
                double lat = home.lat() + (random.nextDouble() - 0.5) * 0.02;
                double lon = home.lon() + (random.nextDouble() - 0.5) * 0.02;
                double amount = Math.round(mean * (0.5 + random.nextDouble()) * 100) / 100.0;
                if (i == travelAt) {
                    City far = farFrom(home, random);
                    lat = far.lat();
                    lon = far.lon();
                    time += 600_000;
                    injected.add(id);
                } else {
                    time += 180_000 + random.nextInt(180_000);
                }
                if (i == spikeAt && i != travelAt) {
                    amount = mean * 20;
                    injected.add(id);
                }
                transactions.add(new Transaction(id, card, amount, lat, lon, time));
            }
        }
        transactions.sort(Comparator.comparingLong(Transaction::time).thenComparing(Transaction::id));
    }

    private static City farFrom(City home, Random random) {
        while (true) {
            City c = CITIES.get(random.nextInt(CITIES.size()));
            if (FraudRules.distanceKm(home.lat(), home.lon(), c.lat(), c.lon()) > 1_500) {
                return c;
            }
        }
    }

    public Map<String, CardHolder> holders() {
        return holders;
    }

    /** Every payment, in time order. */
    public List<Transaction> transactions() {
        return transactions;
    }

    /** The ids of the frauds put in. */
    public Set<String> injected() {
        return injected;
    }

    /** The model: transaction id to the alert the rules give it, over each card's payments in time order. */
    public Map<String, FraudAlert> expected() {
        Map<String, CardHistory> history = new LinkedHashMap<>();
        Map<String, FraudAlert> alerts = new TreeMap<>();
        for (Transaction t : transactions) {
            CardHistory before = history.get(t.card());
            FraudRules.judge(before, t)
                    .ifPresent(v -> alerts.put(
                            t.id(),
                            new FraudAlert(
                                    t.id(),
                                    t.card(),
                                    v.reason(),
                                    v.figure(),
                                    t.amount(),
                                    holders.containsKey(t.card())
                                            ? holders.get(t.card()).name()
                                            : null)));
            history.put(t.card(), before == null ? CardHistory.first(t) : before.after(t));
        }
        return alerts;
    }
}
