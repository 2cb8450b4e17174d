package io.weir.serde.registry;

import java.util.Objects;

/**
 * How a registry serde names and registers its schemas: for keys or for values, the
 * {@link SubjectStrategy}, and whether a schema the registry does not hold yet is registered by
 * the serializer (Confluent's {@code auto.register.schemas}, on by default as there) or must have
 * been registered beforehand (a serializer then fails on it with a message naming the subject).
 * Immutable; the {@code with} methods return changed copies.
 */
public record RegistrySerdeOptions(boolean forKeys, SubjectStrategy subjects, boolean autoRegister) {

    public RegistrySerdeOptions {
        Objects.requireNonNull(subjects, "subjects");
    }

    /** For record values: topic-name subjects, auto-registration on. */
    public static RegistrySerdeOptions values() {
        return new RegistrySerdeOptions(false, SubjectStrategy.TOPIC, true);
    }

    /** For record keys: topic-name subjects, auto-registration on. */
    public static RegistrySerdeOptions keys() {
        return new RegistrySerdeOptions(true, SubjectStrategy.TOPIC, true);
    }

    public RegistrySerdeOptions withSubjects(SubjectStrategy strategy) {
        return new RegistrySerdeOptions(forKeys, strategy, autoRegister);
    }

    public RegistrySerdeOptions withAutoRegister(boolean on) {
        return new RegistrySerdeOptions(forKeys, subjects, on);
    }
}
