package io.weir.benchmarks;

/**
 * The processing guarantee a run is configured with, spelled as in the JSON output
 * ({@code exactly_once}, {@code at_least_once}). Each system translates it to its own setting.
 */
public enum Guarantee {
    EXACTLY_ONCE("exactly_once"),
    AT_LEAST_ONCE("at_least_once");

    private final String label;

    Guarantee(String label) {
        this.label = label;
    }

    /** The name used in JSON lines and in Weir's {@code processing.guarantee}. */
    public String label() {
        return label;
    }
}
