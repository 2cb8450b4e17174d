package io.weir.internal.http.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.internal.http.security.AccessPolicy.Outcome;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AccessPolicyTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final InetAddress REMOTE = address("10.1.2.3");

    private static InetAddress address(String ip) {
        try {
            return InetAddress.getByName(ip);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private static AccessPolicy policy(List<String> tokens, boolean certificates, boolean all, boolean open) {
        return new AccessPolicy(new BearerTokens(tokens, Optional.empty()), certificates, all, open);
    }

    private static Caller from(InetAddress address, String authorization) {
        return new Caller(address, Optional.ofNullable(authorization), false);
    }

    private static Outcome outcome(AccessPolicy policy, String path, Caller caller) {
        return policy.decide(path, caller).outcome();
    }

    @Test
    void healthIsOpenToEveryoneWhateverIsConfigured() {
        for (AccessPolicy p :
                List.of(policy(List.of(), false, false, false), policy(List.of("t"), true, true, false))) {
            assertThat(outcome(p, "/health/live", from(REMOTE, null))).isEqualTo(Outcome.ALLOWED);
            assertThat(outcome(p, "/health/ready", from(REMOTE, null))).isEqualTo(Outcome.ALLOWED);
        }
    }

    @Test
    void withoutCredentialsConfiguredProtectedPathsAnswerOnlyThisHostAndNameTheSettings() {
        AccessPolicy p = policy(List.of(), false, false, false);
        assertThat(outcome(p, "/admin/leave", from(LOOPBACK, null))).isEqualTo(Outcome.ALLOWED);
        assertThat(outcome(p, "/stores/counts/keys/k", from(LOOPBACK, null))).isEqualTo(Outcome.ALLOWED);
        AccessPolicy.Verdict remote = p.decide("/admin/leave", from(REMOTE, null));
        assertThat(remote.outcome()).isEqualTo(Outcome.FORBIDDEN);
        assertThat(remote.message()).contains("http.auth.token.file", "http.tls.truststore.path", "http.admin.open");
        assertThat(outcome(p, "/metrics", from(REMOTE, null))).isEqualTo(Outcome.ALLOWED);
    }

    @Test
    void aTokenIsNeededFromEveryCallerLoopbackIncluded() {
        AccessPolicy p = policy(List.of("old-token", "new-token"), false, false, false);
        for (InetAddress a : List.of(LOOPBACK, REMOTE)) {
            assertThat(outcome(p, "/admin/leave", from(a, null))).isEqualTo(Outcome.UNAUTHENTICATED);
            assertThat(outcome(p, "/admin/leave", from(a, "Basic dXNlcjpwYXNz")))
                    .isEqualTo(Outcome.UNAUTHENTICATED);
            assertThat(outcome(p, "/admin/leave", from(a, "Bearer wrong"))).isEqualTo(Outcome.INVALID_TOKEN);
            assertThat(outcome(p, "/admin/leave", from(a, "Bearer new-token-and-more")))
                    .isEqualTo(Outcome.INVALID_TOKEN);
            assertThat(outcome(p, "/admin/leave", from(a, "Bearer new-token"))).isEqualTo(Outcome.ALLOWED);
            assertThat(outcome(p, "/stores/s/keys/k", from(a, "bearer old-token")))
                    .isEqualTo(Outcome.ALLOWED);
        }
    }

    @Test
    void refusalsNeverQuoteThePresentedToken() {
        AccessPolicy p = policy(List.of("the-real-one"), false, false, false);
        AccessPolicy.Verdict v = p.decide("/admin/leave", from(REMOTE, "Bearer the-real-on"));
        assertThat(v.message()).doesNotContain("the-real-on");
    }

    @Test
    void aVerifiedClientCertificateAuthenticatesWhenCertificatesAreAccepted() {
        AccessPolicy p = policy(List.of(), true, false, false);
        assertThat(outcome(p, "/admin/leave", new Caller(REMOTE, Optional.empty(), true)))
                .isEqualTo(Outcome.ALLOWED);
        AccessPolicy.Verdict without = p.decide("/admin/leave", from(REMOTE, null));
        assertThat(without.outcome()).isEqualTo(Outcome.UNAUTHENTICATED);
        assertThat(without.message()).contains("client certificate");
        assertThat(outcome(p, "/admin/leave", from(REMOTE, "Bearer anything"))).isEqualTo(Outcome.INVALID_TOKEN);
        // A certificate does not count where the instance does not accept certificates.
        assertThat(outcome(
                        policy(List.of("t"), false, false, false),
                        "/admin/leave",
                        new Caller(REMOTE, Optional.empty(), true)))
                .isEqualTo(Outcome.UNAUTHENTICATED);
    }

    @Test
    void scopeAllProtectsMetricsInfoAndTopologyButNotHealth() {
        AccessPolicy admin = policy(List.of("t"), false, false, false);
        AccessPolicy all = policy(List.of("t"), false, true, false);
        for (String path : List.of("/metrics", "/info", "/topology")) {
            assertThat(outcome(admin, path, from(REMOTE, null))).as(path).isEqualTo(Outcome.ALLOWED);
            assertThat(outcome(all, path, from(REMOTE, null))).as(path).isEqualTo(Outcome.UNAUTHENTICATED);
            assertThat(outcome(all, path, from(REMOTE, "Bearer t"))).as(path).isEqualTo(Outcome.ALLOWED);
        }
        assertThat(outcome(all, "/health/ready", from(REMOTE, null))).isEqualTo(Outcome.ALLOWED);
    }

    @Test
    void unknownAndCraftedPathsAreProtected() {
        AccessPolicy p = policy(List.of("t"), false, false, false);
        for (String path : List.of("/", "/no/such", "/health/../admin/leave", "/metrics/../admin/leave", "/admin")) {
            assertThat(outcome(p, path, from(REMOTE, null))).as(path).isEqualTo(Outcome.UNAUTHENTICATED);
        }
    }

    @Test
    void openAnswersEveryone() {
        AccessPolicy p = policy(List.of(), false, false, true);
        assertThat(outcome(p, "/admin/leave", from(REMOTE, null))).isEqualTo(Outcome.ALLOWED);
    }

    @Test
    void adminPathsAreThoseOfTheAdminPort() {
        assertThat(AccessPolicy.adminPath("/admin/leave")).isTrue();
        assertThat(AccessPolicy.adminPath("/stores/counts/keys/a")).isTrue();
        assertThat(AccessPolicy.adminPath("/metrics")).isFalse();
        assertThat(AccessPolicy.adminPath("/health/live")).isFalse();
    }
}
