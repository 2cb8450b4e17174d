package io.weir.serde.registry.internal;

import io.weir.errors.SerdeException;
import io.weir.serde.Serde;
import io.weir.serde.registry.RegistrySerdeOptions;
import io.weir.serde.registry.internal.RegistryClient.SchemaText;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.apache.avro.generic.GenericContainer;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * Avro records in the registry's wire format: generic records (written with their own schema,
 * read as written or into a reader schema) or one specific record class. Datum readers and
 * writers are made once per schema id and schema and shared by every thread, as Avro allows.
 */
public final class AvroSerde<T> implements Serde<T> {

    private record WriterKey(String topic, Schema schema) {}

    private final SchemaCache cache;
    private final RegistrySerdeOptions options;
    /** The schema values are read into (a specific class's own); null: as each record was written. */
    private final Schema readerSchema;

    private final boolean specific;
    private final Map<WriterKey, Integer> ids = new ConcurrentHashMap<>();
    private final Map<Schema, DatumWriter<Object>> writers = new ConcurrentHashMap<>();
    private final Map<Integer, DatumReader<T>> readers = new ConcurrentHashMap<>();

    private AvroSerde(SchemaCache cache, RegistrySerdeOptions options, Schema readerSchema, boolean specific) {
        this.cache = cache;
        this.options = options;
        this.readerSchema = readerSchema;
        this.specific = specific;
    }

    /** Generic records; {@code readerSchema} null reads each record with the schema it was written with. */
    public static <R> AvroSerde<R> generic(SchemaCache cache, RegistrySerdeOptions options, Schema readerSchema) {
        return new AvroSerde<>(cache, options, readerSchema, false);
    }

    /** One generated (specific) record class. */
    public static <R> AvroSerde<R> specific(SchemaCache cache, RegistrySerdeOptions options, Class<R> type) {
        Schema schema = SpecificData.get().getSchema(type);
        AvroTrust.trustSchemaOf(schema);
        return new AvroSerde<>(cache, options, schema, true);
    }

    @Override
    public byte[] serialize(String topic, T value) {
        if (value == null) {
            return null;
        }
        Schema schema = specific ? readerSchema : schemaOf(value);
        int id = ids.computeIfAbsent(new WriterKey(topic, schema), k -> register(topic, schema));
        WireFormat.ByteSink out = new WireFormat.ByteSink(64);
        WireFormat.writeHeader(out, id);
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        try {
            writers.computeIfAbsent(schema, this::writer).write(value, encoder);
            encoder.flush();
        } catch (IOException | RuntimeException e) {
            throw new SerdeException(
                    "cannot write " + schema.getFullName() + " as Avro for " + topic + ": " + e.getMessage(), e);
        }
        return out.toByteArray();
    }

    @Override
    public T deserialize(String topic, byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        WireFormat.Frame f = WireFormat.read(topic, bytes);
        DatumReader<T> reader = readers.computeIfAbsent(f.schemaId(), id -> reader(topic, id));
        try {
            return reader.read(
                    null,
                    DecoderFactory.get()
                            .binaryDecoder(bytes, f.payloadOffset(), bytes.length - f.payloadOffset(), null));
        } catch (IOException | RuntimeException e) {
            throw new SerdeException(
                    "record on " + topic + " (schema id " + f.schemaId() + ") is not valid Avro"
                            + (readerSchema == null ? "" : " for " + readerSchema.getFullName()) + ": "
                            + e.getMessage(),
                    e);
        }
    }

    @Override
    public String formatId() {
        return FormatIds.of(
                FormatIds.AVRO, options, readerSchema == null ? FormatIds.ANY_SCHEMA : readerSchema.toString());
    }

    private static Schema schemaOf(Object value) {
        if (value instanceof GenericContainer c) {
            return c.getSchema();
        }
        throw new SerdeException("an Avro serde was given a " + value.getClass().getName()
                + ", which is not an Avro record (GenericContainer)");
    }

    private int register(String topic, Schema schema) {
        String subject = options.subjects().subject(topic, options.forKeys(), schema.getFullName());
        return cache.idFor(subject, new SchemaText("AVRO", schema.toString()), options.autoRegister());
    }

    @SuppressWarnings("unchecked")
    private DatumWriter<Object> writer(Schema schema) {
        return specific ? new SpecificDatumWriter<>(schema) : new GenericDatumWriter<>(schema);
    }

    private DatumReader<T> reader(String topic, int id) {
        SchemaText text = cache.byId(id, topic);
        if (!"AVRO".equals(text.type())) {
            throw new SerdeException("record on " + topic + " names schema id " + id + ", a " + text.type()
                    + " schema, where an Avro schema was expected");
        }
        Schema writer;
        try {
            writer = new Schema.Parser().parse(text.text());
        } catch (SchemaParseException e) {
            throw new SerdeException("schema id " + id + " is not a valid Avro schema: " + e.getMessage(), e);
        }
        Schema reader = readerSchema == null ? writer : readerSchema;
        try {
            return specific ? new SpecificDatumReader<>(writer, reader) : new GenericDatumReader<>(writer, reader);
        } catch (AvroRuntimeException e) {
            throw new SerdeException(
                    "schema id " + id + " cannot be read as " + reader.getFullName() + ": " + e.getMessage(), e);
        }
    }
}
