package io.weir.sink;

import java.util.Locale;

/**
 * The four delivery guarantees (exactly once, at least once, at most once, none), as the setting
 * {@code processing.guarantee} spells them.
 *
 * <ul>
 *   <li>{@link #EXACTLY_ONCE}: outputs, state changes and input offsets of one commit interval
 *       are one Kafka transaction (EOS v2). A reader with {@code isolation.level=read_committed}
 *       sees every result once, whatever fails.</li>
 *   <li>{@link #AT_LEAST_ONCE}: outputs are flushed before offsets are committed; after a crash
 *       the records since the last commit are processed again, so results may repeat but are
 *       never lost.</li>
 *   <li>{@link #AT_MOST_ONCE}: offsets are committed as soon as records are polled, before they
 *       are processed; after a crash those records are skipped, so results may be lost but never
 *       repeat.</li>
 *   <li>{@link #NONE}: offsets are committed by the consumer's auto-commit in the background;
 *       no promise either way.</li>
 * </ul>
 */
public enum DeliveryGuarantee {
    EXACTLY_ONCE,
    AT_LEAST_ONCE,
    AT_MOST_ONCE,
    NONE;

    /**
     * The spelling used in configuration, for example {@code exactly_once}: the name in lower case,
     * as for every enum setting.
     */
    public String configValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
