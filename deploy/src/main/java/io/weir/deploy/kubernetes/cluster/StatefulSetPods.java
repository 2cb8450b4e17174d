package io.weir.deploy.kubernetes.cluster;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pods a StatefulSet's controller makes from its template, as Kubernetes' StatefulSet
 * controller does: pod {@code <sts>-<ordinal>} with the template's labels and annotations plus
 * {@code statefulset.kubernetes.io/pod-name}, {@code apps.kubernetes.io/pod-index} and
 * {@code controller-revision-hash}; hostname and subdomain; an owner reference; and for each
 * {@code volumeClaimTemplate} a claim {@code <claim>-<sts>-<ordinal>} mounted as the template's
 * volume of that name. The revision is a hash of the pod template (Kubernetes hashes its
 * ControllerRevision; any change of the template changes both), so a new template rolls the pods.
 */
public final class StatefulSetPods {

    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    /** One pod of the set: its manifest, its ordinal, the template revision it was made from, its claims. */
    public record OrdinalPod(Pod pod, int ordinal, String revision, List<PersistentVolumeClaim> claims) {
        String name() {
            return pod.getMetadata().getName();
        }
    }

    private StatefulSetPods() {}

    /** The revision of the set's current template: {@code <sts>-<hash>}. */
    public static String revision(StatefulSet sts) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(JSON.asJson(sts.getSpec().getTemplate()).getBytes(StandardCharsets.UTF_8));
            return sts.getMetadata().getName() + "-" + HexFormat.of().formatHex(digest, 0, 5);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The pod of {@code ordinal} from the set's current template. */
    public static OrdinalPod pod(StatefulSet sts, int ordinal) {
        String set = sts.getMetadata().getName();
        String namespace = sts.getMetadata().getNamespace();
        String name = set + "-" + ordinal;
        String revision = revision(sts);
        var template = sts.getSpec().getTemplate();
        Map<String, String> labels = new LinkedHashMap<>(template.getMetadata().getLabels());
        labels.put("statefulset.kubernetes.io/pod-name", name);
        labels.put("apps.kubernetes.io/pod-index", Integer.toString(ordinal));
        labels.put("controller-revision-hash", revision);
        Map<String, String> annotations = template.getMetadata().getAnnotations() == null
                ? Map.of()
                : template.getMetadata().getAnnotations();
        PodSpec spec = JSON.clone(template.getSpec());
        spec.setHostname(name);
        spec.setSubdomain(sts.getSpec().getServiceName());
        List<PersistentVolumeClaim> claims = new ArrayList<>();
        if (sts.getSpec().getVolumeClaimTemplates() != null) {
            for (PersistentVolumeClaim vct : sts.getSpec().getVolumeClaimTemplates()) {
                String volume = vct.getMetadata().getName();
                String claim = volume + "-" + name;
                // As Kubernetes' controller labels a claim: the template's labels and the selector's.
                Map<String, String> claimLabels = new java.util.TreeMap<>();
                if (vct.getMetadata().getLabels() != null) {
                    claimLabels.putAll(vct.getMetadata().getLabels());
                }
                if (sts.getSpec().getSelector() != null
                        && sts.getSpec().getSelector().getMatchLabels() != null) {
                    claimLabels.putAll(sts.getSpec().getSelector().getMatchLabels());
                }
                claims.add(new PersistentVolumeClaimBuilder()
                        .withMetadata(new ObjectMetaBuilder()
                                .withName(claim)
                                .withNamespace(namespace)
                                .withLabels(claimLabels)
                                .build())
                        .withSpec(JSON.clone(vct.getSpec()))
                        .build());
                spec.getVolumes().removeIf(v -> v.getName().equals(volume));
                spec.getVolumes()
                        .add(new VolumeBuilder()
                                .withName(volume)
                                .withNewPersistentVolumeClaim()
                                .withClaimName(claim)
                                .endPersistentVolumeClaim()
                                .build());
            }
        }
        Pod pod = new PodBuilder()
                .withMetadata(new ObjectMetaBuilder()
                        .withName(name)
                        .withNamespace(namespace)
                        .withLabels(labels)
                        .withAnnotations(new LinkedHashMap<>(annotations))
                        .withOwnerReferences(new OwnerReferenceBuilder()
                                .withApiVersion("apps/v1")
                                .withKind("StatefulSet")
                                .withName(set)
                                .withUid(sts.getMetadata().getUid())
                                .withController(true)
                                .withBlockOwnerDeletion(true)
                                .build())
                        .build())
                .withSpec(spec)
                .build();
        return new OrdinalPod(pod, ordinal, revision, List.copyOf(claims));
    }
}
