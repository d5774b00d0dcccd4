import { ApiProperty } from '@nestjs/swagger';
import { ROLES } from '../../identity/rbac';
import { DATE_TIME, nullable, ROW_ID } from '../../api-docs/schema';

/** What the API shows of an account to the account itself: id, name and email. */
export class PublicUserDto {
  @ApiProperty(ROW_ID)
  id!: number;

  @ApiProperty()
  name!: string;

  @ApiProperty()
  email!: string;
}

export class LoginResponseDto {
  @ApiProperty({ type: PublicUserDto })
  user!: PublicUserDto;

  @ApiProperty({ type: [String], maxItems: 0, description: 'Always empty (sessions carry no abilities)' })
  abilities!: string[];
}

export class IssuedTokenDto {
  @ApiProperty({ description: 'The personal access token (kbp_…), shown once' })
  token!: string;

  @ApiProperty({ enum: ['Bearer'] })
  token_type!: 'Bearer';

  @ApiProperty({ type: PublicUserDto })
  user!: PublicUserDto;
}

export class TwoFactorEnrolmentDto {
  @ApiProperty({ description: 'The TOTP secret (base32)' })
  secret!: string;

  @ApiProperty()
  otpauth_url!: string;

  @ApiProperty({ type: [String] })
  recovery_codes!: string[];
}

export class TwoFactorVerifiedDto {
  @ApiProperty({ enum: [true] })
  two_factor_enabled!: true;
}

class MeUserDto extends PublicUserDto {
  @ApiProperty(nullable(DATE_TIME))
  email_verified_at!: string | null;
}

class MeProjectDto {
  @ApiProperty()
  project_key!: string;

  @ApiProperty()
  role!: string;

  @ApiProperty()
  scope!: string;
}

class MeTeamDto {
  @ApiProperty()
  tenant_id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ type: [String], description: 'Project keys the caller is a member of' })
  projects!: string[];
}

class MePreferencesDto {
  @ApiProperty({ default: 'system' })
  theme!: string;

  @ApiProperty({ default: 'comfortable' })
  density!: string;

  @ApiProperty({ default: 'en' })
  language!: string;
}

class MeAuthDto {
  @ApiProperty({ enum: ['session', 'token', 'iam'] })
  kind!: string;

  @ApiProperty(nullable({ type: 'array', items: { type: 'string' } }))
  abilities!: string[] | null;
}

/** The caller as GET /api/auth/me answers: who, with what rights, where. */
export class MeDto {
  @ApiProperty({ type: MeUserDto })
  user!: MeUserDto;

  @ApiProperty({ description: 'The active tenant' })
  tenant_id!: string;

  @ApiProperty({ enum: ROLES, isArray: true, description: 'Roles in the active tenant' })
  roles!: string[];

  @ApiProperty({ type: [String] })
  permissions!: string[];

  @ApiProperty()
  platform_admin!: boolean;

  @ApiProperty({ type: [MeProjectDto] })
  projects!: MeProjectDto[];

  @ApiProperty({ type: [MeTeamDto], description: 'Every tenant the caller belongs to' })
  teams!: MeTeamDto[];

  @ApiProperty({ type: MePreferencesDto })
  preferences!: MePreferencesDto;

  @ApiProperty({ type: 'object', additionalProperties: true })
  features!: Record<string, unknown>;

  @ApiProperty()
  two_factor_enabled!: boolean;

  @ApiProperty({ type: MeAuthDto })
  auth!: MeAuthDto;
}
