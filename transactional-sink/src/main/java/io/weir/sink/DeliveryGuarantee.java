package io.weir.sink;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The four delivery guarantees of the seed survey, as the setting {@code processing.guarantee}
 * spells them.
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
    EXACTLY_ONCE("exactly_once"),
    AT_LEAST_ONCE("at_least_once"),
    AT_MOST_ONCE("at_most_once"),
    NONE("none");

    private final String configValue;

    DeliveryGuarantee(String configValue) {
        this.configValue = configValue;
    }

    /** The spelling used in configuration, for example {@code exactly_once}. */
    public String configValue() {
        return configValue;
    }

    /**
     * Parses a configuration value (case-insensitive). There is one spelling per value: Kafka
     * Streams' {@code exactly_once_v2} and hyphenated forms such as {@code at-least-once} are
     * refused with the right spelling.
     *
     * @throws IllegalArgumentException naming the allowed values
     */
    public static DeliveryGuarantee parse(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        for (DeliveryGuarantee g : values()) {
            if (g.configValue.equals(v)) {
                return g;
            }
        }
        if (v.equals("exactly_once_v2")) {
            throw new IllegalArgumentException("'" + value + "' is not a value: use exactly_once (Weir's exactly_once"
                    + " is Kafka's EOS v2); allowed: " + allowedValues());
        }
        for (DeliveryGuarantee g : values()) {
            if (g.configValue.equals(v.replace('-', '_'))) {
                throw new IllegalArgumentException("'" + value + "' is spelled " + g.configValue
                        + " (values use underscores); allowed: " + allowedValues());
            }
        }
        throw new IllegalArgumentException("unknown value '" + value + "'; allowed: " + allowedValues());
    }

    /** The allowed configuration values, comma separated. */
    public static String allowedValues() {
        return Arrays.stream(values()).map(DeliveryGuarantee::configValue).collect(Collectors.joining(", "));
    }
}
