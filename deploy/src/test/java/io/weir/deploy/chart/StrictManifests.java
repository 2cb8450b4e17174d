package io.weir.deploy.chart;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBuilder;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads rendered manifests into fabric8's Kubernetes model and rejects any field the model does not
 * know, as the API server's strict field validation ({@code kubectl apply --validate=strict}) would.
 *
 * <p>fabric8's model classes keep unknown fields in an "additional properties" map instead of
 * failing, so {@code FAIL_ON_UNKNOWN_PROPERTIES} alone catches nothing: the modifier below takes
 * that map away from every model class, and a misspelt field then fails naming the field and the
 * class. Resources of custom kinds (ServiceMonitor, PrometheusRule, ScaledObject) have no model class here: they
 * are read as {@link GenericKubernetesResource} (apiVersion, kind and metadata strict, the rest free)
 * and their tests check their fields.
 *
 * <p>A number or a boolean where the model wants a string fails too, as the API server's decoding
 * does: an unquoted {@code name: 1234} or label value {@code true} is YAML's number or boolean, which
 * Jackson would otherwise turn into the string silently.
 */
final class StrictManifests {

    /** The kinds the chart may render, with the model class each must parse into. */
    private static final Map<String, Class<? extends HasMetadata>> MODEL_BY_KIND = Map.ofEntries(
            Map.entry("StatefulSet", StatefulSet.class),
            Map.entry("Service", Service.class),
            Map.entry("ConfigMap", ConfigMap.class),
            Map.entry("ServiceAccount", ServiceAccount.class),
            Map.entry("PodDisruptionBudget", PodDisruptionBudget.class),
            Map.entry("Pod", Pod.class),
            Map.entry("Role", Role.class),
            Map.entry("RoleBinding", RoleBinding.class),
            Map.entry("NetworkPolicy", NetworkPolicy.class),
            Map.entry("ServiceMonitor", GenericKubernetesResource.class),
            Map.entry("PrometheusRule", GenericKubernetesResource.class),
            Map.entry("ScaledObject", GenericKubernetesResource.class),
            // upgrade.mode=savepoint's hooks
            Map.entry("Job", io.fabric8.kubernetes.api.model.batch.v1.Job.class),
            // savepoints.periodic
            Map.entry("CronJob", io.fabric8.kubernetes.api.model.batch.v1.CronJob.class));

    // A key twice in one mapping: Jackson keeps the last, but Helm and kubectl refuse the manifest
    // ("key ... already set in map"), so the tests refuse it too.
    private static final YAMLFactory NO_DUPLICATE_KEYS = YAMLFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();
    private static final ObjectMapper YAML = new ObjectMapper(NO_DUPLICATE_KEYS);
    private static final ObjectMapper STRICT = strict();

    private StrictManifests() {}

    private static ObjectMapper strict() {
        ObjectMapper mapper = new ObjectMapper(NO_DUPLICATE_KEYS)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .registerModule(new SimpleModule().setDeserializerModifier(new NoAdditionalProperties()));
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        return mapper;
    }

    /** Splits {@code helm template}'s output into documents and parses each strictly by its kind. */
    static List<HasMetadata> parse(String multiDocumentYaml) {
        List<HasMetadata> resources = new ArrayList<>();
        for (String document : multiDocumentYaml.split("(?m)^---\\s*$")) {
            JsonNode tree = readTree(document);
            if (tree == null || tree.isNull() || tree.isEmpty()) {
                continue; // a template that rendered nothing (a feature switched off)
            }
            String kind = tree.path("kind").asText();
            Class<? extends HasMetadata> model = MODEL_BY_KIND.get(kind);
            if (model == null) {
                throw new AssertionError("the chart rendered a kind no test knows: " + kind + "\n" + document);
            }
            resources.add(parse(document, model));
        }
        return resources;
    }

    static <T> T parse(String document, Class<T> model) {
        try {
            return STRICT.readValue(document, model);
        } catch (IOException e) {
            throw new AssertionError(
                    "not a valid " + model.getSimpleName() + ": " + e.getMessage() + "\n" + document, e);
        }
    }

    private static JsonNode readTree(String document) {
        try {
            return YAML.readTree(document);
        } catch (IOException e) {
            throw new UncheckedIOException("not YAML:\n" + document, e);
        }
    }

    /** Removes the "any setter" of fabric8's model classes, except where free fields are the point. */
    private static final class NoAdditionalProperties extends BeanDeserializerModifier {
        @Override
        public BeanDeserializerBuilder updateBuilder(
                DeserializationConfig config, BeanDescription description, BeanDeserializerBuilder builder) {
            Class<?> type = description.getBeanClass();
            if (type.getName().startsWith("io.fabric8.") && type != GenericKubernetesResource.class) {
                builder.setAnySetter(null);
                builder.setIgnoreUnknownProperties(false);
            }
            return builder;
        }
    }
}
