package io.weir.cli;

import io.weir.common.internal.Poll;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;

/**
 * The instances an application's consumer group still has, as {@code weir replay},
 * {@code weir cleanup} and the savepoint upgrade wait for them to leave: nothing may change its offsets or topics while one
 * runs, and a pod being stopped keeps its static membership until it has closed (or until
 * {@code session.timeout.ms} passes after a kill).
 */
final class ActiveMembers {

    private static final Duration RECHECK = Duration.ofMillis(500);

    private ActiveMembers() {}

    /** {@code <instance id>@<host>} of every member, sorted; empty when there is no group. */
    static List<String> of(Admin admin, String app) {
        return Groups.describe(admin, app).map(ConsumerGroupDescription::members).orElse(List.of()).stream()
                .map(m -> m.groupInstanceId().orElse(m.consumerId()) + "@" + m.host())
                .sorted()
                .toList();
    }

    /**
     * Waits up to {@code timeout} until the group has no member and {@code also} holds; returns the
     * members left (empty: the wait succeeded). A zero timeout checks once.
     */
    static List<String> awaitNone(Admin admin, String app, Duration timeout, BooleanSupplier also) {
        try {
            Poll.until(() -> of(admin, app).isEmpty() && also.getAsBoolean(), timeout, RECHECK);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandFailedException("interrupted while waiting for the instances of " + app + " to stop", e);
        }
        return of(admin, app);
    }
}
