package io.weir.internal.state.global;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.weir.internal.metrics.WeirMeter;
import io.weir.internal.task.DeadLetters;
import io.weir.internal.task.ErrorDecisions;
import io.weir.internal.task.RecordFailure;
import io.weir.internal.task.Stage;
import io.weir.internal.task.TopicLimits;
import io.weir.processor.ErrorHandler;
import io.weir.processor.ErrorResponse;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a record of a global table's topic that cannot be a row does, as the application's
 * {@link ErrorHandler} decides for a deserialization failure (Kafka Streams' deserialization
 * handler applies to global stores too): a dead letter with the handler's headers, a skip, or a
 * failure of the instance. A service the serde needs being unavailable fails without asking
 * ({@link ErrorDecisions#requireAvailable}). Counted in {@code weir.records.failed} (and
 * {@code weir.records.dead.lettered}) with the global thread as {@code thread}.
 *
 * <p>Used by the global thread of an instance and by the test driver's; not thread-safe.
 */
public final class GlobalFailures {

    private static final Logger log = LoggerFactory.getLogger(GlobalFailures.class);
    /** The {@code thread} tag of the global thread's meters. */
    public static final String THREAD = "weir-global";

    private final ErrorDecisions errors;
    private final String deadLetterTopic;
    private final TopicLimits limits;
    private final Map<ErrorResponse.Action, Counter> failed = new EnumMap<>(ErrorResponse.Action.class);
    private final MeterRegistry registry;
    private final Tags tags;

    /** @param tags {@code application} and {@code instance} */
    public GlobalFailures(
            ErrorHandler handler, String deadLetterTopic, TopicLimits limits, MeterRegistry registry, Tags tags) {
        this.errors = new ErrorDecisions(handler);
        this.deadLetterTopic = deadLetterTopic;
        this.limits = limits;
        this.registry = registry;
        this.tags = tags.and("thread", THREAD);
    }

    /** Counts a failure handled by {@code action}; registered on first use, as a stream thread's are. */
    private void count(ErrorResponse.Action action) {
        failed.computeIfAbsent(
                        action,
                        a -> WeirMeter.RECORDS_FAILED
                                .counter()
                                .tags(tags.and(
                                        "stage",
                                        Stage.DESERIALIZE.label(),
                                        "action",
                                        a.name().toLowerCase(Locale.ROOT)))
                                .register(registry))
                .increment();
        if (action == ErrorResponse.Action.DEAD_LETTER) {
            WeirMeter.RECORDS_DEAD_LETTERED
                    .counter()
                    .tags(tags)
                    .register(registry)
                    .increment();
        }
    }

    /**
     * The dead letter to write for {@code record}, which the global table {@code table} could not
     * read, or empty to skip it.
     *
     * @throws io.weir.errors.ProcessingException if the handler says to fail
     * @throws io.weir.errors.ServiceUnavailableException if a service the serde needs was unavailable
     */
    public Optional<ProducerRecord<byte[], byte[]>> onUnreadable(
            ConsumerRecord<byte[], byte[]> record, String table, RuntimeException error) {
        ErrorDecisions.Decision decision =
                errors.decide(new RecordFailure(null, record, Stage.DESERIALIZE, error, table, null));
        ErrorResponse response = decision.response();
        count(response.action());
        switch (response.action()) {
            case FAIL -> throw Stage.DESERIALIZE.failed(record, error, decision.whyFail());
            case CONTINUE -> {
                log.debug(
                        "skipping {}-{}@{} of global table '{}': {}",
                        record.topic(),
                        record.partition(),
                        record.offset(),
                        table,
                        error.toString());
                return Optional.empty();
            }
            default -> {
                return Optional.of(DeadLetters.deadLetter(
                        record, deadLetterTopic, limits, Stage.DESERIALIZE, error, response.headers()));
            }
        }
    }
}
