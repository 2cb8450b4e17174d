package io.weir.internal.http;

import java.util.Map;

/**
 * What the query endpoints ask of the runtime: one answer per request, from this instance's state
 * or from the instance that owns the key. The same threading contract as {@link InstanceView}:
 * any thread, never waiting for a stream thread (a forwarded request waits for the peer, within
 * its timeout).
 */
public interface StoreQueryView {

    /** What of a key a request asks for. */
    enum Target {
        /** {@code GET /stores/{store}/keys/{key}}: the key's value in a key-value store or table. */
        VALUE,
        /** {@code .../windows?from=&to=}: the key's windows of a window store, by start time. */
        WINDOWS,
        /** {@code .../sessions?from=&to=}: the key's sessions of a session store. */
        SESSIONS
    }

    /**
     * A query for one key.
     *
     * @param store  the store's name, decoded
     * @param key    the key as the path spells it, decoded (see the query service for its forms)
     * @param params the query parameters
     */
    record KeyQuery(String store, String key, Target target, Map<String, String> params) {
        public KeyQuery {
            params = Map.copyOf(params);
        }
    }

    QueryAnswer answer(KeyQuery query);

    /**
     * {@code GET /stores/{store}/keys}: the entries of a key-value store in key order, a page at a
     * time ({@code from}, {@code to}, {@code prefix}, {@code after}, {@code limit}).
     */
    QueryAnswer scan(String store, Map<String, String> params);
}
