// arena: the play page (placeholder until the page lands).
