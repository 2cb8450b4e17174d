package io.weir.internal.tracing;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Span names made of a prefix and a topic ({@code process <topic>}), made once per topic rather
 * than once per record. Shared by the instance's threads: a thread may see another's last name
 * or make a name twice, never a wrong one.
 */
final class SpanNames {

    /** Names kept: the topics an application reads or writes, unless a topic name extractor makes them up. */
    private static final int KEPT = 1024;

    private final String prefix;
    private final Map<String, String> byTopic = new ConcurrentHashMap<>();
    /**
     * The topic asked for last and its name. Records of a partition come in a row and share their
     * topic's instance, so most lookups end here, on a comparison of references. Immutable, so a
     * thread that reads it while another replaces it sees either one whole.
     */
    private Named last = new Named(null, null);

    SpanNames(String prefix) {
        this.prefix = prefix;
    }

    String of(String topic) {
        Named named = last;
        if (named.topic() == topic) {
            return named.name();
        }
        String name = byTopic.get(topic);
        if (name == null) {
            name = prefix + topic;
            if (byTopic.size() < KEPT) {
                byTopic.put(topic, name);
            }
        }
        last = new Named(topic, name);
        return name;
    }

    private record Named(String topic, String name) {}
}
