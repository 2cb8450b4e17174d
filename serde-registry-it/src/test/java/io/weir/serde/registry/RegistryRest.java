package io.weir.serde.registry;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The registry's REST API spoken by hand, as an operator or another client would: the tests' second opinion. */
record RegistryRest(String url) {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    record Answer(int status, String body) {}

    Answer get(String path) {
        return send(HttpRequest.newBuilder(URI.create(url + path)).GET());
    }

    Answer post(String path, String json) {
        return send(HttpRequest.newBuilder(URI.create(url + path))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    Answer put(String path, String json) {
        return send(HttpRequest.newBuilder(URI.create(url + path))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** Sets a subject's compatibility rule (BACKWARD, NONE, ...). */
    void compatibility(String subject, String level) {
        Answer a = put("/config/" + subject, "{\"compatibility\":\"" + level + "\"}");
        if (a.status() != 200) {
            throw new AssertionError("setting " + subject + " to " + level + ": " + a);
        }
    }

    /** Registers a schema as another client would; returns the answer (200 with the id, or 409). */
    Answer register(String subject, String type, String schema) {
        String body =
                "{\"schema\":" + quote(schema) + (type.equals("AVRO") ? "" : ",\"schemaType\":\"" + type + "\"") + "}";
        return post("/subjects/" + subject + "/versions", body);
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                default -> b.append(c);
            }
        }
        return b.append('"').toString();
    }

    private static Answer send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> r =
                    HTTP.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(r.statusCode(), r.body());
        } catch (IOException e) {
            throw new AssertionError("registry request failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
