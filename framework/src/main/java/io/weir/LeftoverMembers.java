package io.weir;

import io.weir.common.internal.Deadline;
import io.weir.errors.ClusterException;
import io.weir.internal.cluster.InstanceMembers;
import java.time.Duration;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last step of a stop that leaves the consumer group: a consumer closed while it was still
 * joining the group sends no leave request, so the coordinator would list it until its session
 * timed out, and the next bounded run or a {@code weir reset} would find the group busy. Kafka
 * Streams removes its static members through the admin client on a leaving close for the same
 * reason.
 */
final class LeftoverMembers {

    /** The instance's stop lines come from the application's logger, as operators filter them. */
    private static final Logger log = LoggerFactory.getLogger(WeirApp.class);

    private LeftoverMembers() {}

    /** Removes what the coordinator still lists of {@code instanceId}; a failure is logged, not thrown. */
    static void remove(Admin admin, String applicationId, String instanceId, Deadline deadline) {
        // The rest of the shutdown timeout, at least 1 s and at most 5 s: an unreachable coordinator
        // must not hold the close up much longer than the consumers' own close did.
        long leftMs = deadline.remaining().toMillis();
        Duration timeout = Duration.ofMillis(Math.min(Math.max(leftMs, 1000), 5000));
        try {
            int removed = InstanceMembers.removeLeftovers(admin, applicationId, instanceId, timeout);
            if (removed > 0) {
                log.debug(
                        "{}: removed {} member(s) the coordinator still listed after their consumers closed",
                        applicationId,
                        removed);
            }
        } catch (ClusterException e) {
            log.warn(
                    "{}: could not check that this instance left the consumer group ({}); a member it still has"
                            + " there goes when its session times out",
                    applicationId,
                    e.getMessage());
        }
    }
}
