package io.weir.serde.registry.internal;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import io.weir.errors.SerdeException;
import io.weir.serde.Serde;
import io.weir.serde.registry.RegistrySerdeOptions;
import io.weir.serde.registry.internal.RegistryClient.SchemaText;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Deque;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Protobuf messages of one type (a generated class, or {@link com.google.protobuf.DynamicMessage}
 * of one descriptor) in the registry's wire format: the header, the message's path in its file
 * (as Confluent's serializer writes it), the message. The schema registered is the type's file
 * as {@code .proto} text. Reading parses with the type's own parser; the id is checked to name a
 * Protobuf schema the registry holds, once per id.
 */
public final class ProtobufSerde<M extends Message> implements Serde<M> {

    private final SchemaCache cache;
    private final RegistrySerdeOptions options;
    private final Descriptor descriptor;
    private final Parser<? extends Message> parser;
    private final SchemaText schema;
    private final int[] messageIndexes;
    private final Map<String, Integer> ids = new ConcurrentHashMap<>();
    private final Set<Integer> knownIds = ConcurrentHashMap.newKeySet();

    public ProtobufSerde(SchemaCache cache, RegistrySerdeOptions options, M defaultInstance) {
        this.cache = cache;
        this.options = options;
        this.descriptor = defaultInstance.getDescriptorForType();
        this.parser = defaultInstance.getParserForType();
        this.schema =
                new SchemaText("PROTOBUF", ProtoText.of(descriptor.getFile().toProto()));
        this.messageIndexes = indexes(descriptor);
    }

    @Override
    public byte[] serialize(String topic, M value) {
        if (value == null) {
            return null;
        }
        if (value.getDescriptorForType() != descriptor
                && !value.getDescriptorForType().getFullName().equals(descriptor.getFullName())) {
            throw new SerdeException("a Protobuf serde for " + descriptor.getFullName() + " was given a "
                    + value.getDescriptorForType().getFullName());
        }
        int id = ids.computeIfAbsent(
                topic,
                t -> cache.idFor(
                        options.subjects().subject(t, options.forKeys(), descriptor.getFullName()),
                        schema,
                        options.autoRegister()));
        WireFormat.ByteSink out = new WireFormat.ByteSink(value.getSerializedSize() + 8);
        WireFormat.writeHeader(out, id);
        WireFormat.writeMessageIndexes(out, messageIndexes);
        try {
            CodedOutputStream coded = CodedOutputStream.newInstance(out, 256);
            value.writeTo(coded);
            coded.flush();
        } catch (IOException e) {
            throw new SerdeException(
                    "cannot write " + descriptor.getFullName() + " for " + topic + ": " + e.getMessage(), e);
        }
        return out.toByteArray();
    }

    @Override
    @SuppressWarnings("unchecked")
    public M deserialize(String topic, byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        WireFormat.Frame f = WireFormat.readProtobuf(topic, bytes);
        if (!knownIds.contains(f.schemaId())) {
            SchemaText text = cache.byId(f.schemaId(), topic);
            if (!"PROTOBUF".equals(text.type())) {
                throw new SerdeException("record on " + topic + " names schema id " + f.schemaId() + ", a "
                        + text.type() + " schema, where a Protobuf schema was expected");
            }
            knownIds.add(f.schemaId());
        }
        try {
            return (M) parser.parseFrom(bytes, f.payloadOffset(), bytes.length - f.payloadOffset());
        } catch (InvalidProtocolBufferException e) {
            throw new SerdeException(
                    "record on " + topic + " (schema id " + f.schemaId() + ") is not a valid "
                            + descriptor.getFullName() + ": " + e.getMessage(),
                    e);
        }
    }

    @Override
    public String formatId() {
        return FormatIds.of(
                FormatIds.PROTOBUF,
                options,
                descriptor.getFullName() + ";"
                        + Base64.getEncoder()
                                .encodeToString(descriptor.getFile().toProto().toByteArray()));
    }

    /** The message's path in its file: its index among the top-level messages, then among each parent's nested ones. */
    static int[] indexes(Descriptor d) {
        Deque<Integer> path = new ArrayDeque<>();
        for (Descriptor c = d; c != null; c = c.getContainingType()) {
            path.addFirst(c.getIndex());
        }
        return path.stream().mapToInt(Integer::intValue).toArray();
    }
}
