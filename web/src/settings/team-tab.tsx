import { useQuery } from "@tanstack/react-query";
import type { TeamMember, TeamRole } from "../../../shared/schemas/team";
import { apiGet } from "../api/client";
import { useCurrentUser } from "../api/current-user";
import { queryKeys } from "../api/query-keys";
import { Alert } from "../ui/alert";
import { Avatar } from "../ui/avatar";
import { Button } from "../ui/button";
import { Spinner } from "../ui/spinner";

const ROLE_LABELS: Record<TeamRole, string> = {
  owner: "Owner",
  admin: "Admin",
  member: "Member",
};

/** The people of the signed-in owner's workspace (issue 26). */
export function TeamTab() {
  const { data: user } = useCurrentUser();
  const members = useQuery({
    queryKey: queryKeys.teamMembers,
    queryFn: () => apiGet<TeamMember[]>("/api/team/members"),
  });
  return (
    <section className="settings-section" aria-labelledby="team-members-title">
      <h3 id="team-members-title" className="settings-section__title">
        Team members
      </h3>
      <p className="settings-section__hint">
        Everyone who works in this workspace, with their role.
      </p>
      {members.isPending ? (
        <div className="team-members__loading">
          <Spinner size="sm" label="" />
          <span>Loading team members…</span>
        </div>
      ) : members.isError ? (
        <Alert variant="destructive" title="Could not load your team">
          <Button variant="secondary" size="sm" onClick={() => void members.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : (
        <ul className="team-members" aria-label="Team members">
          {members.data.map((member) => (
            <li key={member.id} className="team-members__row">
              <Avatar name={member.fullName} imageUrl={member.profilePicture} size={36} />
              <span className="team-members__who">
                <span className="team-members__name">
                  {member.fullName}
                  {member.id === user?.id && <span className="team-members__you"> (you)</span>}
                </span>
                <span className="team-members__email">{member.email}</span>
              </span>
              <span className="team-members__role">{ROLE_LABELS[member.role]}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
