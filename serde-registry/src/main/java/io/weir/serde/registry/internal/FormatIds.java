package io.weir.serde.registry.internal;

import io.weir.serde.registry.RegistrySerdeOptions;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The format ids of the registry serdes: {@code <kind>;<key|value>;<subject strategy>;<schema>},
 * kind one of {@code avro}, {@code protobuf}, {@code json-schema}. The schema is the reader's (what
 * the serde turns bytes into): Avro's schema JSON ({@code *} for a generic serde that reads any
 * schema as written), Protobuf's message name and file descriptor, a JSON Schema's text.
 */
public final class FormatIds {

    public static final String AVRO = "avro";
    public static final String PROTOBUF = "protobuf";
    public static final String JSON_SCHEMA = "json-schema";
    public static final String ANY_SCHEMA = "*";

    /** A parsed id. */
    public record Parsed(String kind, String part, String strategy, String schema) {}

    private FormatIds() {}

    public static String of(String kind, RegistrySerdeOptions options, String schema) {
        return kind + ";" + (options.forKeys() ? "key" : "value") + ";"
                + options.subjects().name() + ";" + schema;
    }

    /** The parts of a registry serde's id; empty for any other id. */
    public static Optional<Parsed> parse(String id) {
        String[] p = id.split(";", 4);
        if (p.length < 4 || !(AVRO.equals(p[0]) || PROTOBUF.equals(p[0]) || JSON_SCHEMA.equals(p[0]))) {
            return Optional.empty();
        }
        return Optional.of(new Parsed(p[0], p[1], p[2], p[3]));
    }

    /** A short, stable fingerprint of a schema for labels. */
    static String fingerprint(String schema) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(schema.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
