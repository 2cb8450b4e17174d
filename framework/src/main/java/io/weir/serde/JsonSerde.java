package io.weir.serde;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.weir.errors.SerdeException;
import java.io.IOException;

/** JSON through Jackson; readers and writers are built once and are thread-safe. */
final class JsonSerde<T> implements Serde<T> {

    // Users' values, not Weir's own documents, so not the shared configuration of internal.json
    // (which this public package may not import either). It differs on purpose: strict, as
    // Serdes.json promises (trailing content and a null for a primitive fail the read), and with
    // Jackson's default of failing on an unknown property, where Weir's own documents ignore
    // unknown properties to read what a newer Weir wrote. Part of the contract of user data on
    // topics: change it only as a documented change of Serdes.json.
    private static final ObjectMapper DEFAULT = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final ObjectReader reader;
    private final ObjectWriter writer;
    private final String typeName;

    private JsonSerde(ObjectMapper mapper, JavaType type) {
        this.reader = mapper.readerFor(type);
        this.writer = mapper.writerFor(type);
        this.typeName = type.toString();
    }

    static ObjectMapper defaultMapper() {
        return DEFAULT;
    }

    static <T> JsonSerde<T> of(ObjectMapper mapper, Class<T> type) {
        return new JsonSerde<>(mapper, mapper.constructType(type));
    }

    static <T> JsonSerde<T> of(ObjectMapper mapper, TypeReference<T> type) {
        return new JsonSerde<>(mapper, mapper.constructType(type));
    }

    /** JSON whatever the type: a type's JSON may evolve (fields added, a record renamed) and still read. */
    @Override
    public String formatId() {
        return "json";
    }

    @Override
    public byte[] serialize(String topic, T value) {
        if (value == null) {
            return null;
        }
        try {
            return writer.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new SerdeException("cannot write " + typeName + " as JSON: " + e.getOriginalMessage(), e);
        }
    }

    @Override
    public T deserialize(String topic, byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        if (bytes.length == 0) {
            throw new SerdeException("empty value where JSON for " + typeName + " was expected");
        }
        try {
            T value = reader.readValue(bytes);
            if (value == null) {
                throw new SerdeException("JSON null where " + typeName + " was expected");
            }
            return value;
        } catch (JsonProcessingException e) {
            throw new SerdeException("invalid JSON for " + typeName + ": " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new SerdeException("cannot read JSON for " + typeName + ": " + e.getMessage(), e);
        }
    }
}
