package io.weir.internal.http;

import io.weir.internal.config.WeirVersion;
import io.weir.internal.json.Json;
import io.weir.internal.topology.TopologyDescription;

/**
 * The endpoints of an instance over its {@link InstanceView}: each asks the view once and renders
 * the answer. The view's threading contract (quick, never waits for a stream thread) is what
 * keeps these handlers quick.
 */
final class OpsEndpoints {

    static final String PROMETHEUS = "text/plain; version=0.0.4; charset=utf-8";

    private final InstanceView view;

    OpsEndpoints(InstanceView view) {
        this.view = view;
    }

    Router routes() {
        Router router = view.storeQueries()
                .map(q -> new QueryEndpoints(q).addTo(new Router()))
                .orElseGet(Router::new);
        return router.get("/health/live", request -> health(view.liveness()))
                .get("/health/ready", request -> health(view.readiness()))
                .get("/metrics", request -> Reply.text(200, PROMETHEUS, view.prometheusText()))
                .get("/topology", this::topology)
                .get("/info", request -> Reply.json(200, InstanceJson.info(view.info())))
                .post("/admin/leave", request -> leave());
    }

    private static Reply health(HealthReport report) {
        return Reply.json(report.ok() ? 200 : 503, InstanceJson.health(report));
    }

    private Reply topology(Request request) {
        String format = request.query().getOrDefault("format", "json");
        return switch (format) {
            // The document the instance records in Kafka, which weir topology show prints.
            case "json" ->
                Reply.json(
                        200,
                        TopologyDescription.of(view.topology(), view.info().applicationId(), WeirVersion.current()));
            case "mermaid" -> Reply.text(200, Reply.TEXT, TopologyMermaid.render(view.topology()));
            default ->
                JsonErrors.badRequest(
                        "unknown format '" + format + "'; use format=json (the default) or format=mermaid");
        };
    }

    private Reply leave() {
        if (!view.leaveGroupAndStop()) {
            return JsonErrors.conflict("the instance is already stopping; nothing was changed");
        }
        return Reply.json(
                202,
                Json.object()
                        .put("status", "LEAVING")
                        .put(
                                "message",
                                "committing, leaving the consumer group and stopping; the instance's tasks"
                                        + " move to the remaining instances at once"));
    }
}
