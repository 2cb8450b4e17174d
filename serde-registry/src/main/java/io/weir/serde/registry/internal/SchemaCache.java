package io.weir.serde.registry.internal;

import io.weir.errors.SerdeException;
import io.weir.serde.registry.internal.RegistryClient.RegistryRefusal;
import io.weir.serde.registry.internal.RegistryClient.SchemaText;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the registry answered, kept for the life of the process: schema ids are immutable, so a
 * schema is asked for once per id and registered (or looked up) once per subject, not per record.
 * Failures are not kept: the next record asks again. Thread-safe.
 */
public final class SchemaCache {

    private record SubjectSchema(String subject, SchemaText schema) {}

    private final RegistryClient client;
    private final Map<Integer, SchemaText> byId = new ConcurrentHashMap<>();
    private final Map<SubjectSchema, Integer> ids = new ConcurrentHashMap<>();

    public SchemaCache(RegistryClient client) {
        this.client = client;
    }

    /**
     * The id of {@code schema} under {@code subject}: registered when {@code autoRegister}, else
     * looked up, failing when the registry does not hold it under that subject.
     */
    public int idFor(String subject, SchemaText schema, boolean autoRegister) {
        SubjectSchema key = new SubjectSchema(subject, schema);
        Integer id = ids.get(key);
        if (id != null) {
            return id;
        }
        int found;
        if (autoRegister) {
            try {
                found = client.register(subject, schema);
            } catch (RegistryRefusal r) {
                if (r.status() == 409) {
                    throw new SerdeException(
                            "the schema is incompatible with the schemas registered under subject "
                                    + subject + ", so it cannot be registered: " + r.getMessage()
                                    + ". Change the schema as the subject's compatibility rule allows, or register it"
                                    + " under another subject",
                            r);
                }
                throw r;
            }
        } else {
            found = client.lookup(subject, schema)
                    .orElseThrow(() -> new SerdeException("the schema is not registered under subject " + subject
                            + " at " + client.addresses() + ", and auto-registration is off: register it first (or turn"
                            + " auto-registration on)"));
        }
        ids.put(key, found);
        byId.putIfAbsent(found, schema);
        return found;
    }

    /** The schema of {@code id}; an id the registry does not know is a {@link SerdeException} naming it. */
    public SchemaText byId(int id, String topic) {
        SchemaText s = byId.get(id);
        if (s != null) {
            return s;
        }
        try {
            s = client.byId(id);
        } catch (RegistryRefusal r) {
            if (r.status() == 404) {
                throw new SerdeException(
                        "record on " + topic + " names schema id " + id + ", which the schema registry at "
                                + client.addresses() + " does not hold (error code " + r.errorCode() + ")",
                        r);
            }
            throw r;
        }
        byId.put(id, s);
        return s;
    }

    public RegistryClient client() {
        return client;
    }
}
