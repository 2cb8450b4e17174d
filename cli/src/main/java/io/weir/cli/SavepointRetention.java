package io.weir.cli;

import io.weir.internal.savepoint.Manifest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A savepoint history of at most {@code maxCount} savepoints, none older than {@code maxAge} (the
 * Flink operator's savepoint history limits): which savepoints it keeps and why. Two are always
 * kept, whatever the limits: the newest (the last state one can go back to) and the one an upgrade
 * took ({@link UpgradeMark}), which a rollback restores.
 *
 * @param maxCount how many of the newest to keep; empty: no limit
 * @param maxAge   how old a kept savepoint may be; empty: no limit
 */
record SavepointRetention(Optional<Integer> maxCount, Optional<Duration> maxAge) {

    private static final Pattern AGE = Pattern.compile("(\\d+)([smhd])");

    /** What becomes of one savepoint. */
    record Verdict(Manifest savepoint, boolean keep, String reason) {}

    SavepointRetention {
        maxCount.ifPresent(n -> {
            if (n < 1) {
                throw new IllegalArgumentException("--keep must be at least 1, not " + n);
            }
        });
        maxAge.ifPresent(d -> {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("--max-age must be positive, not " + d);
            }
        });
    }

    /**
     * The verdicts for {@code savepoints}, newest first.
     *
     * @param upgrading the savepoint of the upgrade marked on the StatefulSet, if any
     */
    List<Verdict> apply(List<Manifest> savepoints, Instant now, Optional<String> upgrading) {
        List<Manifest> newestFirst = new ArrayList<>(savepoints);
        newestFirst.sort(Comparator.comparingLong(Manifest::createdAt).reversed());
        List<Verdict> verdicts = new ArrayList<>();
        for (int i = 0; i < newestFirst.size(); i++) {
            verdicts.add(verdict(newestFirst.get(i), i, now, upgrading));
        }
        return verdicts;
    }

    private Verdict verdict(Manifest m, int index, Instant now, Optional<String> upgrading) {
        Duration age = Duration.between(Instant.ofEpochMilli(m.createdAt()), now);
        if (index == 0) {
            return new Verdict(m, true, "the newest: never deleted");
        }
        if (upgrading.filter(m.id()::equals).isPresent()) {
            return new Verdict(
                    m,
                    true,
                    "taken by the last savepoint upgrade (annotation " + UpgradeMark.ANNOTATION
                            + "): a rollback restores it");
        }
        if (maxCount.isPresent() && index >= maxCount.get()) {
            return new Verdict(m, false, "beyond the newest " + maxCount.get());
        }
        if (maxAge.isPresent() && age.compareTo(maxAge.get()) > 0) {
            return new Verdict(m, false, "older than " + format(maxAge.get()) + " (" + format(age) + ")");
        }
        return new Verdict(
                m,
                true,
                maxCount.map(n -> "among the newest " + n).orElse("no count limit")
                        + maxAge.map(d -> ", younger than " + format(d)).orElse(", no age limit"));
    }

    /**
     * {@code 90s}, {@code 45m}, {@code 12h}, {@code 30d}, or ISO-8601 ({@code P7D}, {@code PT12H}).
     *
     * @throws IllegalArgumentException naming the value
     */
    static Duration parseAge(String text) {
        Matcher m = AGE.matcher(text.trim());
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        }
        try {
            return Duration.parse(text.trim());
        } catch (java.time.format.DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "--max-age must be a number with s, m, h or d (90m, 7d) or ISO-8601 (P7D), not '" + text + "'");
        }
    }

    /** 7d, 12h, 45m or 90s: the largest unit that divides it, else in seconds. */
    static String format(Duration d) {
        long s = d.toSeconds();
        if (s % 86_400 == 0) {
            return s / 86_400 + "d";
        }
        if (s % 3_600 == 0) {
            return s / 3_600 + "h";
        }
        return s % 60 == 0 ? s / 60 + "m" : s + "s";
    }
}
