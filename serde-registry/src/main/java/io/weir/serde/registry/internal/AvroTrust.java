package io.weir.serde.registry.internal;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.util.ClassSecurityValidator;

/**
 * Trusts the generated classes an application hands to a specific-record serde. Since Avro 1.12.2,
 * Avro loads a class by name only when its {@link ClassSecurityValidator} trusts it, and by default
 * it trusts a few JDK classes only, so a reader of the application's own {@code Order} fails unless
 * the application sets {@code org.apache.avro.SERIALIZABLE_PACKAGES}. A class passed to
 * {@code RegistrySerdes.avro(registry, Order.class, ...)} is one the application chose: it and the
 * named types its schema reaches are trusted, nothing else. The validator in place is kept and
 * asked first.
 */
final class AvroTrust {

    private static final Set<String> TRUSTED = ConcurrentHashMap.newKeySet();
    private static volatile boolean installed;

    private AvroTrust() {}

    static void trustSchemaOf(Schema schema) {
        collect(schema, new HashSet<>());
        install();
    }

    private static void collect(Schema s, Set<String> seen) {
        switch (s.getType()) {
            case RECORD -> {
                if (seen.add(s.getFullName())) {
                    TRUSTED.add(s.getFullName());
                    s.getFields().forEach(f -> collect(f.schema(), seen));
                }
            }
            case ENUM, FIXED -> TRUSTED.add(s.getFullName());
            case ARRAY -> collect(s.getElementType(), seen);
            case MAP -> collect(s.getValueType(), seen);
            case UNION -> s.getTypes().forEach(t -> collect(t, seen));
            default -> {
                // primitives load no class
            }
        }
    }

    private static synchronized void install() {
        if (!installed) {
            ClassSecurityValidator.ClassSecurityPredicate before = ClassSecurityValidator.getGlobal();
            ClassSecurityValidator.setGlobal(
                    ClassSecurityValidator.composite(before, c -> TRUSTED.contains(c.getName())));
            installed = true;
        }
    }
}
