package io.weir.cli;

import io.weir.config.WeirConfig;
import io.weir.internal.config.InternalTopic;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Recognizes an application's own topics by name, with the application's settings (its
 * dead-letter and late-records topics may have names of their own); the names themselves are
 * {@link InternalTopic}'s. Without the topology, names are all there is: an application whose id
 * extends another's ({@code app} and {@code app-x}) shares its prefix, so {@code --topology}
 * gives the exact list where it matters (reset).
 */
final class AppTopics {

    private AppTopics() {}

    /** The kind of an internal topic of the application, or empty for any other topic. */
    static Optional<InternalTopic> kindOf(WeirConfig config, String topic) {
        return InternalTopic.kindOf(
                config.applicationId(),
                topic,
                config.deadLetterTopic(),
                config.eventTime().lateRecordsTopic());
    }

    /** As {@link #kindOf}, spelled for operators ({@code changelog}, {@code dead-letter}...), or null. */
    static String label(WeirConfig config, String topic) {
        return kindOf(config, topic).map(InternalTopic::label).orElse(null);
    }

    static boolean isInternal(WeirConfig config, String topic) {
        return kindOf(config, topic).isPresent();
    }

    static Set<String> internal(WeirConfig config, Set<String> topics) {
        Set<String> internal = new TreeSet<>();
        for (String t : topics) {
            if (isInternal(config, t)) {
                internal.add(t);
            }
        }
        return internal;
    }
}
