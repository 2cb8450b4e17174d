package io.weir.samples.common;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The exactly-once check of a running aggregation per key (a sum, or a count as a sum of ones):
 * built from what was fed, it judges what the application emitted.
 *
 * <p>The application's table emits a key's latest total at most once per commit interval, so the
 * output holds a subsequence of the key's true running totals, ending with its final total. The
 * check passes when
 * <ul>
 *   <li>every emitted total is one of the key's true running totals (a record counted twice, or a
 *       lost update, gives a total that never was),</li>
 *   <li>a key's emitted totals strictly increase (one emitted again, or an older one after a newer,
 *       means output was repeated), and</li>
 *   <li>every key's last emitted total is its final total.</li>
 * </ul>
 * Amounts must be positive, so that the true running totals of a key strictly increase.
 *
 * <p>Not thread-safe: the thread that feeds and reads owns it.
 */
public final class RunningTotals<K> {

    /** What an emitted total turned out to be. */
    public enum Outcome {
        /** One of the key's true running totals, above the one emitted before it. */
        OK,
        /** Not one of the key's true running totals (or a key that was never fed). */
        WRONG,
        /** A true running total, but not above the one emitted before it. */
        REPEATED
    }

    private final Map<K, Set<Long>> totals = new HashMap<>();
    private final Map<K, Long> finals = new HashMap<>();
    private final Map<K, Long> latest = new HashMap<>();
    private final Map<K, Long> lastRead = new HashMap<>();
    private final Map<K, Integer> updates = new HashMap<>();
    private long fed;
    private long received;
    private long wrong;
    private long repeated;

    /** Notes {@code amount} fed for {@code key}: its running total grows by it. */
    public void fed(K key, long amount) {
        if (amount <= 0) {
            throw new IllegalArgumentException("amounts must be positive, was " + amount + " for " + key);
        }
        long total = finals.merge(key, amount, Long::sum);
        totals.computeIfAbsent(key, k -> new HashSet<>()).add(total);
        fed++;
    }

    /** Notes a total emitted for {@code key} (null: a tombstone, which no running total is). */
    public Outcome received(K key, Long total) {
        received++;
        lastRead.put(key, total);
        Set<Long> truths = totals.get(key);
        if (total == null || truths == null || !truths.contains(total)) {
            wrong++;
            return Outcome.WRONG;
        }
        Long previous = latest.get(key);
        if (previous != null && total <= previous) {
            repeated++;
            return Outcome.REPEATED;
        }
        latest.put(key, total);
        updates.merge(key, 1, Integer::sum);
        return Outcome.OK;
    }

    /** True once every fed key's last emitted total is its final total. */
    public boolean allFinal() {
        return missing() == 0;
    }

    /** True when the whole check passed (see the class comment). */
    public boolean passed() {
        return allFinal() && wrong == 0 && repeated == 0;
    }

    /** Keys whose last emitted total is not (yet) their final total. */
    public int missing() {
        int missing = 0;
        for (Map.Entry<K, Long> e : finals.entrySet()) {
            if (!e.getValue().equals(lastRead.get(e.getKey()))) {
                missing++;
            }
        }
        return missing;
    }

    /** Each key's final total, the largest first (then by key's string form). */
    public Map<K, Long> finals() {
        List<Map.Entry<K, Long>> entries = new ArrayList<>(finals.entrySet());
        entries.sort(Map.Entry.<K, Long>comparingByValue(Comparator.reverseOrder())
                .thenComparing(e -> String.valueOf(e.getKey())));
        Map<K, Long> sorted = new LinkedHashMap<>();
        entries.forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    /** The last total emitted for {@code key} (the last value read for it), or null if none was. */
    public Long lastRead(K key) {
        return lastRead.get(key);
    }

    /** How many correct totals were emitted for {@code key}. */
    public int updates(K key) {
        return updates.getOrDefault(key, 0);
    }

    public long fedCount() {
        return fed;
    }

    public long receivedCount() {
        return received;
    }

    public int keys() {
        return finals.size();
    }

    public long wrong() {
        return wrong;
    }

    public long repeated() {
        return repeated;
    }

    /** One line: what was read back, what was wrong, and whether the check passed. */
    public String summary() {
        return received + " totals read back (read_committed) for " + keys() + " keys; "
                + wrong + " not a true running total, " + repeated + " repeated, "
                + missing() + " keys not at their final total: exactly-once check "
                + (passed() ? "PASSED" : "FAILED");
    }
}
