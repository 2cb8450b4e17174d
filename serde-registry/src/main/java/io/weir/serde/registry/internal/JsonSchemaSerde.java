package io.weir.serde.registry.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.weir.errors.SerdeException;
import io.weir.serde.Serde;
import io.weir.serde.registry.RegistrySerdeOptions;
import io.weir.serde.registry.internal.RegistryClient.SchemaText;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Values of one type as JSON (through Jackson) in the registry's wire format, registered under
 * a JSON Schema the application gives. The record name of the record subject strategies is the
 * schema's {@code title}, as Confluent's serializer takes it. Reading checks once per id that the
 * registry holds it as a JSON schema. Values are not validated against the schema (Confluent's
 * default); the compatibility checks compare the schemas themselves.
 */
public final class JsonSchemaSerde<T> implements Serde<T> {

    private final SchemaCache cache;
    private final RegistrySerdeOptions options;
    private final SchemaText schema;
    private final String canonicalSchema;
    private final String recordName;
    private final ObjectReader reader;
    private final ObjectWriter writer;
    private final String typeName;
    private final Map<String, Integer> ids = new ConcurrentHashMap<>();
    private final Set<Integer> knownIds = ConcurrentHashMap.newKeySet();

    public JsonSchemaSerde(SchemaCache cache, RegistrySerdeOptions options, Class<T> type, String jsonSchema) {
        this.cache = cache;
        this.options = options;
        JsonNode parsed;
        try {
            parsed = Json.MAPPER.readTree(jsonSchema);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "the JSON Schema for " + type.getName() + " is not JSON: " + e.getOriginalMessage(), e);
        }
        if (parsed == null || !parsed.isObject()) {
            throw new IllegalArgumentException("the JSON Schema for " + type.getName() + " is not a JSON object");
        }
        this.canonicalSchema = parsed.toString();
        this.schema = new SchemaText("JSON", jsonSchema);
        this.recordName = parsed.path("title").asText(type.getName());
        this.reader = Json.MAPPER.readerFor(type).with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        this.writer = Json.MAPPER.writerFor(type);
        this.typeName = type.getName();
    }

    @Override
    public byte[] serialize(String topic, T value) {
        if (value == null) {
            return null;
        }
        int id = ids.computeIfAbsent(
                topic,
                t -> cache.idFor(
                        options.subjects().subject(t, options.forKeys(), recordName), schema, options.autoRegister()));
        WireFormat.ByteSink out = new WireFormat.ByteSink(128);
        WireFormat.writeHeader(out, id);
        try {
            writer.writeValue(out, value);
        } catch (IOException e) {
            throw new SerdeException("cannot write " + typeName + " as JSON for " + topic + ": " + e.getMessage(), e);
        }
        return out.toByteArray();
    }

    @Override
    public T deserialize(String topic, byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        WireFormat.Frame f = WireFormat.read(topic, bytes);
        if (!knownIds.contains(f.schemaId())) {
            SchemaText text = cache.byId(f.schemaId(), topic);
            if (!"JSON".equals(text.type())) {
                throw new SerdeException("record on " + topic + " names schema id " + f.schemaId() + ", a "
                        + text.type() + " schema, where a JSON schema was expected");
            }
            knownIds.add(f.schemaId());
        }
        try {
            T value = reader.readValue(bytes, f.payloadOffset(), bytes.length - f.payloadOffset());
            if (value == null) {
                throw new SerdeException("record on " + topic + " holds JSON null where " + typeName + " was expected");
            }
            return value;
        } catch (IOException e) {
            throw new SerdeException(
                    "record on " + topic + " (schema id " + f.schemaId() + ") is not JSON for " + typeName + ": "
                            + e.getMessage(),
                    e);
        }
    }

    @Override
    public String formatId() {
        return FormatIds.of(FormatIds.JSON_SCHEMA, options, canonicalSchema);
    }
}
