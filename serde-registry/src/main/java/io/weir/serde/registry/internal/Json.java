package io.weir.serde.registry.internal;

import com.fasterxml.jackson.databind.ObjectMapper;

/** The module's one Jackson mapper, for the registry's REST documents and JSON Schema texts. */
final class Json {

    static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {}
}
