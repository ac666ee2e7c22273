import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { EXTRA_SEAT_PRICE, SEATS_INCLUDED } from "../../../shared/tiers";
import { useCurrentUser } from "../api/current-user";
import { useTeamMembers } from "../api/team-members";
import { useSeats } from "../billing/seats-query";
import { formatPrice } from "../i18n/formats";
import { Alert } from "../ui/alert";
import { Button, buttonClassName } from "../ui/button";
import { Spinner } from "../ui/spinner";
import { TeamActivity } from "./team-activity";
import { TeamInviteForm } from "./team-invite-form";
import { TeamInvitesList } from "./team-invites-list";
import { TeamMemberRow } from "./team-member-row";
import { TeamSeats } from "./team-seats";

/**
 * The people of the signed-in person's workspace (issue 26). The owner and admins invite,
 * change roles and remove; members see the list. One's own role comes from this list, so the
 * user as GET /api/user presents it stays as it is. The owner and admins see the workspace's
 * activity (the audit log) below.
 */
export function TeamTab() {
  const { t } = useTranslation("settings");
  const { data: user } = useCurrentUser();
  const members = useTeamMembers();
  const myRole = members.data?.find((member) => member.id === user?.id)?.role;
  const managesTeam = myRole === "owner" || myRole === "admin";
  const teamPlan = user != null && SEATS_INCLUDED[user.accountTier] > 1;
  const seats = useSeats({ enabled: teamPlan });
  return (
    <div className="settings-section-list">
      <section className="settings-section" aria-labelledby="team-members-title">
        <h3 id="team-members-title" className="settings-section__title">
          {t("Team members")}
        </h3>
        <p className="settings-section__hint">
          {t("Everyone who works in this workspace, with their role.")}
        </p>
        {members.isPending ? (
          <div className="team-members__loading">
            <Spinner size="sm" label="" />
            <span>{t("Loading team members…")}</span>
          </div>
        ) : members.isError ? (
          <Alert variant="destructive" title={t("Could not load your team")}>
            <Button variant="secondary" size="sm" onClick={() => void members.refetch()}>
              {t("Try again")}
            </Button>
          </Alert>
        ) : (
          <ul className="team-members" aria-label={t("Team members")}>
            {members.data.map((member) => (
              <TeamMemberRow
                key={member.id}
                member={member}
                isYou={member.id === user?.id}
                manageable={managesTeam && member.id !== user?.id}
                canHandOver={myRole === "owner" && member.id !== user?.id}
              />
            ))}
          </ul>
        )}
        {teamPlan && seats.data && <TeamSeats seats={seats.data} isOwner={myRole === "owner"} />}
      </section>
      {managesTeam &&
        (teamPlan ? (
          <>
            <TeamInviteForm seats={seats.data} isOwner={myRole === "owner"} />
            <TeamInvitesList />
          </>
        ) : (
          <section className="settings-section" aria-labelledby="team-upgrade-title">
            <h3 id="team-upgrade-title" className="settings-section__title">
              {t("Invite your team")}
            </h3>
            <p className="settings-section__hint">
              {t(
                "Team members are part of the Agency plan: {{count}} seats, yours included, each with their own sign-in, and clients assigned to them. More seats are {{price}} a month each.",
                {
                  count: SEATS_INCLUDED.agency,
                  price: formatPrice(EXTRA_SEAT_PRICE.monthly * 100),
                },
              )}
            </p>
            {myRole === "owner" && (
              <div>
                <Link to="/pricing" className={buttonClassName("secondary", "sm")}>
                  {t("View plans")}
                </Link>
              </div>
            )}
          </section>
        ))}
      {/* What happened stays readable on any plan (after a downgrade too). */}
      {managesTeam && <TeamActivity />}
    </div>
  );
}
