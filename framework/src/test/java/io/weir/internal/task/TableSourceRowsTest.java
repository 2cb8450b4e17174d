package io.weir.internal.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.errors.ServiceUnavailableException;
import io.weir.internal.topology.NodeSpec;
import io.weir.internal.topology.StoreSpec;
import io.weir.serde.Serdes;
import io.weir.state.changelog.SourceRecords;
import io.weir.time.Timestamps;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** What a table's store keeps of its source topic's records when the topic is its changelog. */
class TableSourceRowsTest {

    record Customer(String name, String region) {}

    private final StoreSpec store = new StoreSpec(
                    "customers", Serdes.strings(), Serdes.json(Customer.class), true, true, null)
            .withSourceTopic("customers");
    private final TableSourceRows rows = new TableSourceRows(
            new NodeSpec.Source(
                    "source-1", List.of("customers"), null, Serdes.strings(), Serdes.json(Customer.class), false, null),
            Timestamps.recordTime(),
            System::currentTimeMillis,
            store);

    private static ConsumerRecord<byte[], byte[]> record(String key, String value, long timestamp) {
        return new ConsumerRecord<>(
                "customers",
                0,
                0,
                timestamp,
                org.apache.kafka.common.record.TimestampType.CREATE_TIME,
                0,
                0,
                key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                value == null ? null : value.getBytes(StandardCharsets.UTF_8),
                new org.apache.kafka.common.header.internals.RecordHeaders(),
                java.util.Optional.empty());
    }

    @Test
    void keepsTheBytesProcessingWritesNotTheBytesOnTheTopic() {
        SourceRecords.Entry e = rows.entry(record("c1", "{ \"region\" : \"north\",  \"name\":\"Ada\" }", 5));
        assertThat(new String(e.key(), StandardCharsets.UTF_8)).isEqualTo("c1");
        assertThat(e.value())
                .isEqualTo(Serdes.json(Customer.class).serialize("customers", new Customer("Ada", "north")));
    }

    @Test
    void aTombstoneDeletesTheRow() {
        SourceRecords.Entry e = rows.entry(record("c1", null, 5));
        assertThat(e.value()).isNull();
    }

    @Test
    void skipsWhatProcessingDeadLetters() {
        assertThat(rows.entry(record("c1", "not json", 5)))
                .as("undeserializable value")
                .isNull();
        assertThat(rows.entry(record(null, "{\"name\":\"Ada\"}", 5)))
                .as("no key")
                .isNull();
        assertThat(rows.entry(record("c1", "{\"name\":\"Ada\"}", -1)))
                .as("no timestamp")
                .isNull();
    }

    @Test
    void aSerdeWhoseServiceIsUnavailableFailsTheRestoreRatherThanSkipTheRow() {
        io.weir.serde.Serde<String> down = new io.weir.serde.Serde<>() {
            @Override
            public byte[] serialize(String topic, String value) {
                return Serdes.strings().serialize(topic, value);
            }

            @Override
            public String deserialize(String topic, byte[] bytes) {
                throw new ServiceUnavailableException("schema registry http://r:8081 is down");
            }
        };
        TableSourceRows unavailable = new TableSourceRows(
                new NodeSpec.Source("source-1", List.of("customers"), null, Serdes.strings(), down, false, null),
                Timestamps.recordTime(),
                System::currentTimeMillis,
                new StoreSpec("customers", Serdes.strings(), down, true, true, null).withSourceTopic("customers"));
        assertThatThrownBy(() -> unavailable.entry(record("c1", "{}", 5)))
                .isInstanceOf(ServiceUnavailableException.class)
                .hasMessageContaining("customers-0@0")
                .hasMessageContaining("http://r:8081");
    }
}
