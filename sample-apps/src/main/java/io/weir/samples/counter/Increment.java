package io.weir.samples.counter;

/**
 * One input record of the keyed counter: record key {@code key}, value {@code amount} (8 bytes,
 * {@code Serdes.longs()}). Written as {@code ["a",2]}.
 */
public record Increment(String key, long amount) {

    @Override
    public String toString() {
        return "[\"" + key + "\"," + amount + "]";
    }
}
