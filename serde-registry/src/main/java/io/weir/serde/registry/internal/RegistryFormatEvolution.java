package io.weir.serde.registry.internal;

import io.weir.serde.FormatEvolution;
import java.util.Optional;

/**
 * Judges changes between the registry serdes' format ids as the registry's {@code BACKWARD} rule
 * does (the new serde must read what the old one wrote): Avro by Avro's own reader-writer check,
 * Protobuf and JSON Schema by the rules in {@link ProtobufEvolution} and {@link JsonSchemaEvolution}.
 * Found by {@link java.util.ServiceLoader}; pure and thread-safe.
 */
public final class RegistryFormatEvolution implements FormatEvolution {

    @Override
    public Optional<Verdict> judge(String written, String reading) {
        Optional<FormatIds.Parsed> before = FormatIds.parse(written);
        Optional<FormatIds.Parsed> after = FormatIds.parse(reading);
        if (before.isEmpty() && after.isEmpty()) {
            return Optional.empty();
        }
        if (before.isEmpty() || after.isEmpty()) {
            return Optional.of(
                    Verdict.unreadable("the bytes of " + shown(written) + " are not those of " + shown(reading)));
        }
        FormatIds.Parsed b = before.get();
        FormatIds.Parsed a = after.get();
        if (!b.kind().equals(a.kind())) {
            return Optional.of(Verdict.unreadable(b.kind() + " bytes cannot be read as " + a.kind()));
        }
        return Optional.of(
                switch (a.kind()) {
                    case FormatIds.AVRO -> AvroEvolution.judge(b.schema(), a.schema());
                    case FormatIds.PROTOBUF -> ProtobufEvolution.judge(b.schema(), a.schema());
                    default -> JsonSchemaEvolution.judge(b.schema(), a.schema());
                });
    }

    @Override
    public Optional<String> label(String formatId) {
        return FormatIds.parse(formatId)
                .map(p -> p.kind() + " " + p.part() + " " + schemaName(p) + " (schema "
                        + FormatIds.fingerprint(p.schema()) + ")");
    }

    private String shown(String id) {
        return label(id).orElse(id.length() > 60 ? id.substring(0, 60) + "..." : id);
    }

    private static String schemaName(FormatIds.Parsed p) {
        return switch (p.kind()) {
            case FormatIds.AVRO -> AvroEvolution.name(p.schema());
            case FormatIds.PROTOBUF ->
                p.schema().substring(0, Math.max(0, p.schema().indexOf(';')));
            default -> JsonSchemaEvolution.name(p.schema());
        };
    }
}
