package io.weir.serde.registry;

import com.google.protobuf.Message;
import io.weir.serde.Serde;
import io.weir.serde.registry.internal.AvroSerde;
import io.weir.serde.registry.internal.JsonSchemaSerde;
import io.weir.serde.registry.internal.ProtobufSerde;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.specific.SpecificRecord;

/**
 * Serdes in a schema registry's wire format (a zero magic byte, the 4-byte schema id, for
 * Protobuf the message's path in its file, then the payload), byte for byte what Confluent's
 * {@code KafkaAvroSerializer}, {@code KafkaProtobufSerializer} and {@code KafkaJsonSchemaSerializer}
 * write, so topics written by existing Kafka Streams services read unchanged and the other way
 * round. Usable for keys, values, stores and changelogs (a store's subject is its changelog's).
 *
 * <p>Guarantees: every serde is thread-safe; the registry is asked once per schema (see
 * {@link SchemaRegistry}); a record whose bytes are not in the wire format, name a schema id the
 * registry does not hold, or do not decode is a {@link io.weir.errors.SerdeException} naming the
 * topic and the id (the record goes to the dead-letter topic); an unreachable registry stops the
 * instance rather than dead-letter records. {@link Serde#formatId()} carries the serde's schema, so
 * Weir's compatibility checks (start-up, {@code weir topology diff}, savepoint restore) accept a
 * schema change that the registry's {@code BACKWARD} rule accepts and refuse, naming the field, one
 * it refuses.
 */
public final class RegistrySerdes {

    private RegistrySerdes() {}

    /** Avro generic records, each written with its own schema and read as it was written. */
    public static Serde<GenericRecord> avro(SchemaRegistry registry, RegistrySerdeOptions options) {
        return AvroSerde.generic(registry.cache(), Objects.requireNonNull(options, "options"), null);
    }

    /**
     * Avro generic records read into {@code readerSchema} (Avro's schema resolution: fields added
     * with defaults, removed, promoted), written with their own schema.
     */
    public static Serde<GenericRecord> avro(
            SchemaRegistry registry, Schema readerSchema, RegistrySerdeOptions options) {
        return AvroSerde.generic(
                registry.cache(),
                Objects.requireNonNull(options, "options"),
                Objects.requireNonNull(readerSchema, "readerSchema"));
    }

    /** Avro specific records of one generated class, read into its schema whatever schema they were written with. */
    public static <T extends SpecificRecord> Serde<T> avro(
            SchemaRegistry registry, Class<T> type, RegistrySerdeOptions options) {
        return AvroSerde.specific(
                registry.cache(), Objects.requireNonNull(options, "options"), Objects.requireNonNull(type, "type"));
    }

    /**
     * Protobuf messages of one type: a generated class's default instance
     * ({@code Order.getDefaultInstance()}) or {@code DynamicMessage.getDefaultInstance(descriptor)}.
     * The schema registered is the type's {@code .proto} file; files that import others are not
     * supported yet (schema references).
     */
    public static <M extends Message> Serde<M> protobuf(
            SchemaRegistry registry, M defaultInstance, RegistrySerdeOptions options) {
        Objects.requireNonNull(defaultInstance, "defaultInstance");
        if (defaultInstance.getDescriptorForType().getFile().getDependencies().stream()
                .anyMatch(d -> !d.getName().startsWith("google/protobuf/"))) {
            throw new IllegalArgumentException(
                    defaultInstance.getDescriptorForType().getFullName() + "'s file imports "
                            + defaultInstance.getDescriptorForType().getFile().getDependencies()
                            + "; schema references are not supported yet: put the types in one file");
        }
        return new ProtobufSerde<>(registry.cache(), Objects.requireNonNull(options, "options"), defaultInstance);
    }

    /**
     * Values of {@code type} as JSON (Jackson), registered under {@code jsonSchema} (a JSON Schema
     * document; its {@code title} is the record name of the record subject strategies).
     */
    public static <T> Serde<T> jsonSchema(
            SchemaRegistry registry, Class<T> type, String jsonSchema, RegistrySerdeOptions options) {
        return new JsonSchemaSerde<>(
                registry.cache(),
                Objects.requireNonNull(options, "options"),
                Objects.requireNonNull(type, "type"),
                Objects.requireNonNull(jsonSchema, "jsonSchema"));
    }
}
