package io.weir.testkit.kubernetes;

import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingList;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.http.MockResponse;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes RBAC for service-account requests, decided from the Roles and RoleBindings held in the
 * mock server (namespaced rules only: ClusterRoles are not evaluated, so a binding to one grants
 * nothing here). A request is allowed when a RoleBinding in its namespace names the service account
 * and its Role has a rule matching the API group, the resource (with {@code /subresource}), the
 * verb and, when the rule lists them, the object's name. The refusal text is the API server's.
 */
final class Rbac {

    /** /api/v1/namespaces/ns/res[/name[/sub]] or /apis/group/version/namespaces/ns/res[/name[/sub]]. */
    private static final Pattern PATH = Pattern.compile(
            "/(?:api/v1|apis/([^/]+)/[^/]+)/namespaces/([^/]+)/([^/?]+)(?:/([^/?]+))?(?:/([^/?]+))?(?:\\?(.*))?");

    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private final KubernetesCrudDispatcher store;

    Rbac(KubernetesCrudDispatcher store) {
        this.store = store;
    }

    /** Empty when allowed; else the 403 message. {@code account} is "namespace:name". */
    Optional<String> refusal(String account, String method, String path) {
        String[] sa = account.split(":", 2);
        String user = "system:serviceaccount:" + sa[0] + ":" + sa[1];
        Matcher m = PATH.matcher(path);
        if (!m.matches()) {
            return Optional.of("forbidden: User \"" + user + "\" cannot " + method + " path \"" + path + "\"");
        }
        String group = m.group(1) == null ? "" : m.group(1);
        String namespace = m.group(2);
        String resource = m.group(3);
        String name = m.group(4);
        String sub = m.group(5);
        boolean watch = m.group(6) != null && m.group(6).contains("watch=true");
        String verb = switch (method) {
            case "GET" -> name == null ? (watch ? "watch" : "list") : "get";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> name == null ? "deletecollection" : "delete";
            default -> method.toLowerCase(java.util.Locale.ROOT);
        };
        String fullResource = sub == null ? resource : resource + "/" + sub;
        if (allowed(sa[0], sa[1], namespace, group, fullResource, verb, name)) {
            return Optional.empty();
        }
        return Optional.of(resource + (group.isEmpty() ? "" : "." + group)
                + (name == null ? "" : " \"" + name + "\"") + " is forbidden: User \"" + user + "\" cannot " + verb
                + " resource \"" + fullResource + "\" in API group \"" + group + "\" in the namespace \"" + namespace
                + "\"");
    }

    private boolean allowed(
            String saNamespace,
            String saName,
            String namespace,
            String group,
            String resource,
            String verb,
            String name) {
        MockResponse bindings =
                store.handleGet("/apis/rbac.authorization.k8s.io/v1/namespaces/" + namespace + "/rolebindings");
        if (bindings.code() != 200) {
            return false;
        }
        for (RoleBinding binding : JSON.unmarshal(bindings.getBody().readUtf8(), RoleBindingList.class)
                .getItems()) {
            boolean bound = binding.getSubjects() != null
                    && binding.getSubjects().stream().anyMatch(s -> names(s, saNamespace, saName, namespace));
            if (!bound || !"Role".equals(binding.getRoleRef().getKind())) {
                continue;
            }
            MockResponse role = store.handleGet("/apis/rbac.authorization.k8s.io/v1/namespaces/" + namespace + "/roles/"
                    + binding.getRoleRef().getName());
            if (role.code() != 200) {
                continue;
            }
            List<PolicyRule> rules =
                    JSON.unmarshal(role.getBody().readUtf8(), Role.class).getRules();
            if (rules != null && rules.stream().anyMatch(r -> matches(r, group, resource, verb, name))) {
                return true;
            }
        }
        return false;
    }

    private static boolean names(Subject s, String saNamespace, String saName, String bindingNamespace) {
        String ns = s.getNamespace() == null ? bindingNamespace : s.getNamespace();
        return "ServiceAccount".equals(s.getKind()) && saName.equals(s.getName()) && saNamespace.equals(ns);
    }

    private static boolean matches(PolicyRule r, String group, String resource, String verb, String name) {
        return has(r.getApiGroups(), group)
                && has(r.getResources(), resource)
                && has(r.getVerbs(), verb)
                && (r.getResourceNames() == null
                        || r.getResourceNames().isEmpty()
                        || (name != null && r.getResourceNames().contains(name)));
    }

    private static boolean has(List<String> values, String value) {
        return values != null && (values.contains("*") || values.contains(value));
    }
}
