package io.weir.internal.state;

import java.util.Map;
import java.util.Optional;

/**
 * The topic ids of an application's changelog topics as the cluster has them now (Kafka's
 * {@code Uuid}, as text), looked up once when the instance starts. A changelog deleted and
 * recreated under the same name (by {@code weir reset} and the next start) gets a new id, which is
 * how a task tells that its local state follows a changelog that no longer exists: offsets into
 * the old topic say nothing about the new one, so comparing offsets alone could reuse stale state.
 *
 * <p>Immutable; a topic not looked up is unknown, and an unknown id never condemns local state.
 */
public final class ChangelogTopicIds {

    /** Knows no topic: local state is judged by its offsets only (the test driver, old checkpoints). */
    public static final ChangelogTopicIds UNKNOWN = new ChangelogTopicIds(Map.of());

    private final Map<String, String> ids;

    private ChangelogTopicIds(Map<String, String> ids) {
        this.ids = Map.copyOf(ids);
    }

    /** The ids by topic name. */
    public static ChangelogTopicIds of(Map<String, String> idsByTopic) {
        return new ChangelogTopicIds(idsByTopic);
    }

    /** The current id of {@code topic}, if known. */
    public Optional<String> current(String topic) {
        return Optional.ofNullable(ids.get(topic));
    }

    /**
     * True if local state that follows {@code topic} with id {@code recordedId} (null: not
     * recorded) belongs to an earlier topic of that name: both ids are known and they differ.
     */
    public boolean recreated(String topic, String recordedId) {
        String now = ids.get(topic);
        return now != null && recordedId != null && !now.equals(recordedId);
    }

    @Override
    public String toString() {
        return ids.toString();
    }
}
