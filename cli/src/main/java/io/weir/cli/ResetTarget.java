package io.weir.cli;

import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Where {@code weir reset --to} moves the input offsets: the earliest or latest offset of each
 * partition, or the first offset whose record timestamp is at or after an instant. A duration
 * ({@code PT1H}, {@code 90m}, {@code 1h}, {@code 2d}, {@code 30s}, {@code 500ms}) means that long
 * before now.
 */
sealed interface ResetTarget {

    /** The first offset still in each partition. */
    record Earliest() implements ResetTarget {
        @Override
        public String toString() {
            return "earliest";
        }
    }

    /** The end of each partition (read_committed): skip everything there is. */
    record Latest() implements ResetTarget {
        @Override
        public String toString() {
            return "latest";
        }
    }

    /** The first record with a timestamp at or after {@code time}; the end if there is none. */
    record At(Instant time) implements ResetTarget {
        @Override
        public String toString() {
            return time.toString();
        }
    }

    Pattern SHORT_DURATION = Pattern.compile("(\\d+)(ms|s|m|h|d)");

    /**
     * Parses a {@code --to} value.
     *
     * @throws IllegalArgumentException saying what is accepted
     */
    static ResetTarget parse(String text, Clock clock) {
        String t = text.trim();
        switch (t.toLowerCase(Locale.ROOT)) {
            case "earliest":
                return new Earliest();
            case "latest":
                return new Latest();
            default:
                break;
        }
        Matcher m = SHORT_DURATION.matcher(t.toLowerCase(Locale.ROOT));
        try {
            if (m.matches()) {
                long n = Long.parseLong(m.group(1));
                Duration d = switch (m.group(2)) {
                    case "ms" -> Duration.ofMillis(n);
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    default -> Duration.ofDays(n);
                };
                return new At(clock.instant().minus(d));
            }
            if (t.startsWith("P") || t.startsWith("p")) {
                Duration d = Duration.parse(t);
                if (d.isNegative()) {
                    throw new IllegalArgumentException("'" + text + "' is a negative duration");
                }
                return new At(clock.instant().minus(d));
            }
            if (t.contains("T")) {
                return new At(
                        t.endsWith("Z") || t.endsWith("z")
                                ? Instant.parse(t.toUpperCase(Locale.ROOT))
                                : OffsetDateTime.parse(t).toInstant());
            }
        } catch (DateTimeException | NumberFormatException | ArithmeticException e) {
            // the message below
        }
        throw new IllegalArgumentException("'" + text + "' is not earliest, latest, an ISO-8601 instant"
                + " (2024-05-01T10:00:00Z, 2024-05-01T12:00:00+02:00) or a duration before now (PT1H, 90m, 1h, 2d)");
    }

    /** picocli's converter: a bad value is a usage error naming the option. */
    final class Converter implements CommandLine.ITypeConverter<ResetTarget> {
        @Override
        public ResetTarget convert(String value) {
            try {
                return parse(value, Clock.systemUTC());
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
