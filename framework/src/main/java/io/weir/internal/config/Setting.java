package io.weir.internal.config;

import io.weir.ConfigException;
import java.util.function.Function;

/**
 * One Weir setting: its name, default (null when required or derived), a parser that throws
 * {@link IllegalArgumentException} with a message saying what is allowed, and documentation.
 */
public record Setting<T>(String name, String defaultValue, Function<String, T> parser, String doc) {

    public T parse(String raw) {
        if (raw == null) {
            throw new ConfigException(name, "is required but was not set (" + doc + ")");
        }
        try {
            return parser.apply(raw.trim());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(name, e.getMessage());
        }
    }

    static Function<String, Integer> intAtLeast(int min) {
        return s -> {
            int v;
            try {
                v = Integer.parseInt(s);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + s + "' is not an integer; allowed: an integer >= " + min);
            }
            if (v < min) {
                throw new IllegalArgumentException(v + " is too small; allowed: an integer >= " + min);
            }
            return v;
        };
    }

    static Function<String, Long> longAtLeast(long min) {
        return s -> {
            long v;
            try {
                v = Long.parseLong(s);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + s + "' is not an integer; allowed: an integer >= " + min);
            }
            if (v < min) {
                throw new IllegalArgumentException(v + " is negative or too small; allowed: an integer >= " + min);
            }
            return v;
        };
    }

    static Function<String, String> nonEmpty() {
        return s -> {
            if (s.isEmpty()) {
                throw new IllegalArgumentException("must not be empty");
            }
            return s;
        };
    }
}
