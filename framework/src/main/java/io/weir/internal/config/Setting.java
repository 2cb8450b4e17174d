package io.weir.internal.config;

import io.weir.errors.ConfigException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One Weir setting, declared once: its name, default (null when required or derived), the default
 * as docs/configuration.md documents it (markdown), a parser that throws
 * {@link IllegalArgumentException} with a message saying what is allowed, documentation (markdown,
 * the "Meaning" column of that page's settings table) and, for a setting without a default, the
 * value it takes when no source sets it, computed from the settings declared before it (null when
 * it is required).
 *
 * <p>Names are lower case with dots and never contain {@code _}: an environment variable
 * {@code WEIR_<NAME>} maps to a setting by turning {@code _} into {@code .}, so an underscore in a
 * name could not be set from the environment.
 */
public record Setting<T>(
        String name,
        String defaultValue,
        String documentedDefault,
        Function<String, T> parser,
        String doc,
        Function<SettingValues, T> derivedDefault) {

    public Setting {
        if (defaultValue != null && derivedDefault != null) {
            throw new IllegalArgumentException(name + ": a default value and a derived default");
        }
    }

    /** A setting whose documented default is its default value, or "required" when it has none. */
    public Setting(String name, String defaultValue, Function<String, T> parser, String doc) {
        this(name, defaultValue, defaultValue == null ? "required" : "`" + defaultValue + "`", parser, doc);
    }

    /** A setting with a fixed default documented in words. */
    public Setting(String name, String defaultValue, String documentedDefault, Function<String, T> parser, String doc) {
        this(name, defaultValue, documentedDefault, parser, doc, null);
    }

    /** A setting that, when no source sets it, takes a value computed from the settings declared before it. */
    static <T> Setting<T> derived(
            String name,
            String documentedDefault,
            Function<String, T> parser,
            Function<SettingValues, T> derivedDefault,
            String doc) {
        return new Setting<>(name, null, documentedDefault, parser, doc, derivedDefault);
    }

    /** A setting that is absent (empty) unless a source sets it. */
    static <T> Setting<Optional<T>> optional(
            String name, String documentedDefault, Function<String, T> parser, String doc) {
        return new Setting<>(name, null, documentedDefault, parser.andThen(Optional::of), doc, v -> Optional.empty());
    }

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

    /**
     * The value of this setting given its raw value ({@code null} when no source sets it) and the
     * values of the settings declared before it.
     *
     * @throws ConfigException naming this setting if the value is invalid, or missing and required
     */
    T resolve(String raw, SettingValues earlier) {
        if (raw == null && defaultValue == null && derivedDefault != null) {
            return derivedDefault.apply(earlier);
        }
        return parse(raw != null ? raw : defaultValue);
    }

    static Function<String, Integer> intAtLeast(int min) {
        return intBetween(min, Integer.MAX_VALUE);
    }

    static Function<String, Integer> intBetween(int min, int max) {
        String allowed = max == Integer.MAX_VALUE ? "an integer >= " + min : "an integer from " + min + " to " + max;
        return s -> {
            int v;
            try {
                v = Integer.parseInt(s);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + s + "' is not an integer; allowed: " + allowed);
            }
            if (v < min || v > max) {
                throw new IllegalArgumentException(v + " is out of range; allowed: " + allowed);
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

    /** A share: a decimal number from 0 to 1. */
    static Function<String, Double> ratio() {
        return s -> {
            double v;
            try {
                v = Double.parseDouble(s);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + s + "' is not a number; allowed: a number from 0 to 1");
            }
            if (!(v >= 0 && v <= 1)) {
                throw new IllegalArgumentException(s + " is out of range; allowed: a number from 0 to 1");
            }
            return v;
        };
    }

    /** A duration written in milliseconds ({@code *.ms} settings), at least {@code min}. */
    static Function<String, Duration> millisAtLeast(long min) {
        return longAtLeast(min).andThen(Duration::ofMillis);
    }

    static Function<String, String> nonEmpty() {
        return s -> {
            if (s.isEmpty()) {
                throw new IllegalArgumentException("must not be empty");
            }
            return s;
        };
    }

    /** {@code true} or {@code false}, in any case; nothing else (not {@code yes}, {@code 1}). */
    static Function<String, Boolean> bool() {
        return s -> switch (s.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("'" + s + "' is not a boolean; allowed: true, false");
        };
    }

    /**
     * The constants of {@code type}, spelled as their names in lower case ({@code LOG_APPEND} is
     * {@code log_append}), in any case. A spelling with hyphens is refused with the right one, so a
     * value written for an older Weir fails at start-up instead of meaning something else.
     */
    static <E extends Enum<E>> Function<String, E> enumOf(Class<E> type) {
        return enumOf(type, Map.of());
    }

    /**
     * As {@link #enumOf(Class)}, and each of {@code refused}'s keys (lower case), a spelling users
     * know from elsewhere, is refused with its advice: {@code 'v' is not a value: <advice>; allowed: ...}.
     */
    static <E extends Enum<E>> Function<String, E> enumOf(Class<E> type, Map<String, String> refused) {
        E[] constants = type.getEnumConstants();
        String allowed = Arrays.stream(constants).map(Setting::spelling).collect(Collectors.joining(", "));
        return s -> {
            String v = s.toLowerCase(Locale.ROOT);
            for (E e : constants) {
                if (spelling(e).equals(v)) {
                    return e;
                }
            }
            if (refused.containsKey(v)) {
                throw new IllegalArgumentException(
                        "'" + s + "' is not a value: " + refused.get(v) + "; allowed: " + allowed);
            }
            String underscored = v.replace('-', '_');
            for (E e : constants) {
                if (spelling(e).equals(underscored)) {
                    throw new IllegalArgumentException(
                            "'" + s + "' is spelled " + underscored + " (values use underscores); allowed: " + allowed);
                }
            }
            throw new IllegalArgumentException("unknown value '" + s + "'; allowed: " + allowed);
        };
    }

    /** How configuration spells an enum constant: its name in lower case. */
    public static String spelling(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT);
    }
}
