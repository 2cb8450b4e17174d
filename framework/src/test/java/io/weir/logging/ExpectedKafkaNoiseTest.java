package io.weir.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.spi.FilterReply;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.junit.jupiter.api.Test;

class ExpectedKafkaNoiseTest {

    private final LoggerContext context = new LoggerContext();
    private final ExpectedKafkaNoise filter = new ExpectedKafkaNoise();
    private final Logger sender = context.getLogger("org.apache.kafka.clients.producer.internals.Sender");
    private final Logger replicaManager = context.getLogger("kafka.server.ReplicaManager");

    @Test
    void dropsTheRetriedTransactionRacesOfTheProducer() {
        String format = "[Producer clientId=p, transactionalId=t] Got error produce response with correlation id {} on"
                + " topic-partition {}, retrying ({} attempts left). Error: {}";
        assertThat(filter.decide(
                        null,
                        sender,
                        Level.WARN,
                        format,
                        new Object[] {19, "alerts-2", 2147483646, "CONCURRENT_TRANSACTIONS"},
                        null))
                .isEqualTo(FilterReply.DENY);
        assertThat(filter.decide(
                        null,
                        sender,
                        Level.WARN,
                        "Got error produce response with correlation id 21 on"
                                + " topic-partition alerts-3, retrying (2147483646 attempts left). Error: OUT_OF_ORDER_SEQUENCE_NUMBER",
                        null,
                        null))
                .isEqualTo(FilterReply.DENY);
    }

    @Test
    void keepsOtherProducerWarnings() {
        assertThat(filter.decide(
                        null,
                        sender,
                        Level.WARN,
                        "Got error produce response with correlation id {} on"
                                + " topic-partition {}, retrying ({} attempts left). Error: {}",
                        new Object[] {3, "a-0", 5, "NOT_LEADER_OR_FOLLOWER"},
                        null))
                .isEqualTo(FilterReply.NEUTRAL);
        assertThat(filter.decide(
                        null,
                        sender,
                        Level.ERROR,
                        "Uncaught error in kafka producer I/O thread: ",
                        null,
                        new IllegalStateException()))
                .isEqualTo(FilterReply.NEUTRAL);
    }

    @Test
    void dropsOnlyTheTransactionsV2SequenceErrorOfTheBroker() {
        String format = "[ReplicaManager broker=1] Error processing append operation on partition {}";
        OutOfOrderSequenceException race = new OutOfOrderSequenceException("Invalid sequence number for producer 1 at"
                + " offset 53 in partition alerts-3: 11 (incoming seq. number). Expected sequence 0 for transactions v2"
                + " idempotent producer with no existing state.");
        assertThat(filter.decide(null, replicaManager, Level.ERROR, format, new Object[] {"alerts-3"}, race))
                .isEqualTo(FilterReply.DENY);
        OutOfOrderSequenceException other = new OutOfOrderSequenceException("Out of order sequence number for"
                + " producer 1674 at offset 548171 in partition t-0: 51 (incoming seq. number), 49 (current end"
                + " sequence number)");
        assertThat(filter.decide(null, replicaManager, Level.ERROR, format, new Object[] {"t-0"}, other))
                .isEqualTo(FilterReply.NEUTRAL);
    }
}
