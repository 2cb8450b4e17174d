package io.weir.query;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One answer of the query endpoints.
 *
 * @param instance the instance that read the state
 * @param source   {@code active} (the task's own committed state), {@code standby} or
 *                 {@code restoring} (a copy behind by {@code lag} changelog records, only when
 *                 the query accepted a lag), or {@code global} (a global table)
 * @param lag      changelog records the copy read had not applied; 0 for the active copy
 * @param body     the whole JSON answer: {@code value}, or {@code windows} / {@code sessions} with
 *                 {@code next_from}
 */
public record QueryAnswer(String instance, String source, long lag, JsonNode body) {

    /** The value of a key; JSON null when the answer has none. */
    public JsonNode value() {
        return body.path("value");
    }
}
