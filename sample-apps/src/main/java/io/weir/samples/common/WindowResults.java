package io.weir.samples.common;

import io.weir.state.Windowed;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The exactly-once check of windowed results: built from the results the fed input implies (the
 * model), it replays what the application emitted, in the order read, as a changelog of windows:
 * a value emits a window's result, a {@code null} value retracts it (as Weir does for sessions a
 * record merged).
 *
 * <p>The check passes when
 * <ul>
 *   <li>no window is emitted again while its result stands (a repeated result: output written
 *       twice),</li>
 *   <li>every retraction takes back a result that stands, and</li>
 *   <li>the results standing at the end are exactly the expected ones, with the expected
 *       values (nothing missing, nothing extra, nothing counted twice or lost).</li>
 * </ul>
 * Windows that are not expected may be emitted on the way as long as they are retracted later
 * (sessions before a merge). The samples emit each window once, so an update of a standing result
 * without a retraction counts as a repeat.
 *
 * <p>Not thread-safe: the thread that reads owns it.
 */
public final class WindowResults<K, V> {

    /** What an emitted record turned out to be. */
    public enum Outcome {
        /** A result with the value the model expects for its window. */
        EXPECTED,
        /** A result for a window the model does not expect to stand at the end (or with another value). */
        UNEXPECTED,
        /** A retraction of a standing result. */
        RETRACTION,
        /** A result for a window whose result already stands. */
        REPEATED,
        /** A retraction of a window that has no standing result. */
        WRONG_RETRACTION
    }

    private final Map<Windowed<K>, V> expected;
    private final Map<Windowed<K>, V> standing = new LinkedHashMap<>();
    private final List<Windowed<K>> retracted = new ArrayList<>();
    private long received;
    private long repeated;
    private long wrongRetractions;

    /** @param expected each window's result that must stand at the end */
    public WindowResults(Map<Windowed<K>, V> expected) {
        this.expected = Map.copyOf(expected);
    }

    /** Notes a result read back: {@code value} for {@code window}, or its retraction if null. */
    public Outcome received(Windowed<K> window, V value) {
        Objects.requireNonNull(window, "window");
        received++;
        if (value == null) {
            if (standing.remove(window) == null) {
                wrongRetractions++;
                return Outcome.WRONG_RETRACTION;
            }
            retracted.add(window);
            return Outcome.RETRACTION;
        }
        if (standing.containsKey(window)) {
            repeated++;
            return Outcome.REPEATED;
        }
        standing.put(window, value);
        return value.equals(expected.get(window)) ? Outcome.EXPECTED : Outcome.UNEXPECTED;
    }

    /**
     * Notes a record read back, as {@link #received(Windowed, Object)}, and prints it to stdout when it
     * is wrong (a repeated result or a retraction of nothing): the outcome, {@code label} (unless
     * null), the window and value, and where the record stands in its topic.
     */
    public Outcome received(TailRecord<Windowed<K>, V> record, String label) {
        Outcome outcome = received(record.key(), record.value());
        if (outcome == Outcome.REPEATED || outcome == Outcome.WRONG_RETRACTION) {
            System.out.println(outcome + " " + (label == null ? "" : label + " ") + record.key() + " = "
                    + record.value() + " at partition " + record.partition() + " offset " + record.offset());
        }
        return outcome;
    }

    /** True once the standing results are exactly the expected ones. */
    public boolean complete() {
        return standing.equals(expected);
    }

    /** True when the whole check passed (see the class comment). */
    public boolean passed() {
        return complete() && repeated == 0 && wrongRetractions == 0;
    }

    /** Expected windows whose result does not stand (yet), or stands with another value. */
    public long missing() {
        return expected.entrySet().stream()
                .filter(e -> !e.getValue().equals(standing.get(e.getKey())))
                .count();
    }

    /** Standing results the model does not expect. */
    public long unexpected() {
        return standing.keySet().stream().filter(w -> !expected.containsKey(w)).count();
    }

    /** The expected result of {@code window}, or null if none is. */
    public V expected(Windowed<K> window) {
        return expected.get(window);
    }

    /** The results standing now, in the order they were emitted. */
    public Map<Windowed<K>, V> standing() {
        return Collections.unmodifiableMap(standing);
    }

    /** The windows retracted so far, in order. */
    public List<Windowed<K>> retracted() {
        return Collections.unmodifiableList(retracted);
    }

    public long receivedCount() {
        return received;
    }

    public int expectedCount() {
        return expected.size();
    }

    public long repeated() {
        return repeated;
    }

    public long wrongRetractions() {
        return wrongRetractions;
    }

    /** One line: what was read back, what was wrong, and whether the check passed. */
    public String summary() {
        return received + " results read back (read_committed), " + retracted.size() + " retracted; "
                + standing.size() + " standing for " + expected.size() + " expected windows: " + missing()
                + " missing or wrong, " + unexpected() + " unexpected, " + repeated + " repeated, "
                + wrongRetractions + " wrong retractions: check " + (passed() ? "PASSED" : "FAILED");
    }
}
