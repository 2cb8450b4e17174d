package io.weir.ported;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.common.KeyValue;
import io.weir.dsl.Emit;
import io.weir.dsl.SessionWindows;
import io.weir.serde.Serdes;
import java.time.Duration;

/**
 * Confluent's {@code SessionWindowsExample}: play events per user, counted per session (30 minutes
 * of inactivity close one, 100 ms of grace), each session's count written with the key
 * {@code user@start->end}.
 *
 * <p>The original's play events are Avro records in a schema registry; here they are JSON: the
 * registry has its own port ({@link WikipediaFeedAvro}).
 */
final class SessionWindowsExample {

    static final String PLAY_EVENTS = "play-events";
    static final String PLAY_EVENTS_PER_SESSION = "play-events-per-session";
    static final Duration INACTIVITY_GAP = Duration.ofMinutes(30);

    record PlayEvent(long songId, long duration) {}

    private SessionWindowsExample() {}

    static Topology topology() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.json(PlayEvent.class), PLAY_EVENTS)
                .groupByKey()
                .windowedBy(SessionWindows.withInactivityGap(INACTIVITY_GAP).allowedLateness(Duration.ofMillis(100)))
                // Kafka Streams without a record cache writes a session's count at every record;
                // Weir's default writes it once the session has closed (Emit.atWatermark).
                .emit(Emit.everyUpdate())
                .count(PLAY_EVENTS_PER_SESSION)
                .map((session, count) ->
                        KeyValue.of(session.key() + "@" + session.start() + "->" + session.end(), count))
                .to(PLAY_EVENTS_PER_SESSION, Serdes.strings(), Serdes.longs());
        return b.build();
    }
}
