package io.weir.docs.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.errors.ConfigException;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import io.weir.serde.registry.RegistrySerdeOptions;
import io.weir.serde.registry.RegistrySerdes;
import io.weir.serde.registry.SchemaRegistry;
import io.weir.serde.registry.SubjectStrategy;
import java.time.Duration;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * docs/serialization.md: a registry, Avro and JSON Schema serdes in a topology. Nothing here asks a
 * registry (a serde asks on its first record); serde-registry-it runs them against a real one.
 */
class RegistrySerdesTest {

    record Payment(String id, long cents) {}

    static final String TOTAL_SCHEMA = "{\"type\":\"record\",\"name\":\"Total\",\"namespace\":\"shop\","
            + "\"fields\":[{\"name\":\"customer\",\"type\":\"string\"},{\"name\":\"cents\",\"type\":\"long\"}]}";

    static SchemaRegistry registry(Map<String, String> env) {
        // tag::registry[]
        SchemaRegistry registry = SchemaRegistry.builder()
                .url(env.getOrDefault("SCHEMA_REGISTRY_URL", "http://registry:8081"))
                .basicAuth(
                        env.getOrDefault("SCHEMA_REGISTRY_USER", "weir"),
                        env.getOrDefault("SCHEMA_REGISTRY_PASSWORD", ""))
                .retryTimeout(Duration.ofSeconds(30)) // then the instance stops, naming the address
                .build();
        // end::registry[]
        return registry;
    }

    static Topology topology(SchemaRegistry registry) {
        Schema totalSchema = new Schema.Parser().parse(TOTAL_SCHEMA);
        // tag::topology[]
        String paymentSchema = "{\"title\":\"Payment\",\"type\":\"object\",\"additionalProperties\":false,"
                + "\"properties\":{\"id\":{\"type\":\"string\"},\"cents\":{\"type\":\"integer\"}}}";
        Serde<Payment> payments = RegistrySerdes.jsonSchema(
                registry,
                Payment.class,
                paymentSchema,
                RegistrySerdeOptions.values().withSubjects(SubjectStrategy.RECORD));
        Serde<GenericRecord> totals = RegistrySerdes.avro(registry, totalSchema, RegistrySerdeOptions.values());

        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), payments, "payments")
                .groupByKey()
                .aggregate(
                        () -> null,
                        (customer, payment, before) -> {
                            GenericRecord after = new GenericData.Record(totalSchema);
                            after.put("customer", customer);
                            after.put("cents", (before == null ? 0L : (Long) before.get("cents")) + payment.cents());
                            return after;
                        },
                        totals, // the store's values and its changelog: Avro under "<changelog>-value"
                        "totals")
                .toStream()
                .to("totals", Serdes.strings(), totals);
        // end::topology[]
        return b.build();
    }

    @Test
    void theTopologyBuildsAndItsStoreCarriesItsSchemaInItsFormat() {
        Topology t = topology(registry(Map.of("SCHEMA_REGISTRY_URL", "http://localhost:8081")));
        assertThat(t.describe()).contains("totals");
        Serde<GenericRecord> totals = RegistrySerdes.avro(
                registry(Map.of()), new Schema.Parser().parse(TOTAL_SCHEMA), RegistrySerdeOptions.values());
        assertThat(totals.formatId()).startsWith("avro;value;topic;{\"type\":\"record\",\"name\":\"Total\"");
    }

    @Test
    void aWrongAddressFailsAtStartUpNamingTheSetting() {
        assertThatThrownBy(() -> registry(Map.of("SCHEMA_REGISTRY_URL", "registry:8081")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("schema.registry.url");
    }
}
