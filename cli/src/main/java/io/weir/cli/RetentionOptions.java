package io.weir.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * A savepoint history's limits ({@code @Mixin}): {@code savepoint prune} applies them, and
 * {@code upgrade} after a successful upgrade when given.
 */
final class RetentionOptions {

    @Option(
            names = "--keep",
            paramLabel = "N",
            description = "keep at most the N newest savepoints (the newest, and an upgrade's, are always kept)")
    Integer keep;

    @Option(
            names = "--max-age",
            paramLabel = "DURATION",
            description = "delete savepoints older than DURATION: 90m, 12h, 7d, or ISO-8601 (P7D)")
    String maxAge;

    @Option(
            names = "--prefix",
            paramLabel = "PREFIX",
            description = "only savepoints whose id starts with PREFIX (repeatable; default: every savepoint)")
    List<String> prefixes = new ArrayList<>();

    /** Whether any limit was given. */
    boolean given() {
        return keep != null || maxAge != null;
    }

    /**
     * @throws IllegalArgumentException naming the option that is wrong
     */
    SavepointRetention retention() {
        Optional<Duration> age = Optional.ofNullable(maxAge).map(SavepointRetention::parseAge);
        return new SavepointRetention(Optional.ofNullable(keep), age);
    }

    boolean covers(String savepointId) {
        return prefixes.isEmpty() || prefixes.stream().anyMatch(savepointId::startsWith);
    }
}
