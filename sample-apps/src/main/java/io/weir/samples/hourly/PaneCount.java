package io.weir.samples.hourly;

/**
 * A windowed count with the trigger firing that emitted it, read from its {@code weir.pane}
 * header by {@link PaneOf}, so that the DSL's predicates, which see keys and values only, can
 * route on it.
 *
 * @param pane  {@code early} (the hour is still open, the count so far) or {@code final} (the
 *              watermark passed the hour's end)
 * @param count the hour's count
 */
public record PaneCount(String pane, long count) {

    public static final String EARLY = "early";
    public static final String FINAL = "final";

    public boolean early() {
        return EARLY.equals(pane);
    }

    public boolean isFinal() {
        return FINAL.equals(pane);
    }
}
